import { and, asc, desc, eq, getTableColumns, gte, ilike, lte, or, sql, type SQL } from 'drizzle-orm';
import type { InvoiceListQuery } from '@divan/core';
import type { DbOrTx } from '../../platform/db/database';
import { reusableQuery } from '../../platform/db/reusable-query';
import { invoiceCounters, invoiceLines, invoices, verifactuRecords, type InvoiceLineRow, type InvoiceRow } from './invoices.tables';

/**
 * Which invoices a member reads: a therapist's (seller "therapist") as their `invoices` permission says
 * (all, or only those they own), and the workspace's (seller "workspace") when they read `workspace_invoices`.
 */
/** The invoice lines are written under: its id and its workspace (the lines carry both). */
type InvoiceRef = Pick<InvoiceRow, 'id' | 'workspaceId'>;
type LineValues = Omit<typeof invoiceLines.$inferInsert, 'invoiceId' | 'workspaceId'>;

export type InvoiceScope = { therapist: { kind: 'all' } | { kind: 'own'; ownerId: string } | { kind: 'none' }; workspace: boolean };

/** `ownerId`: the value, or a placeholder in a query built once (`findWithLines`). */
function scoped(s: InvoiceScope, ownerId: unknown = s.therapist.kind === 'own' ? s.therapist.ownerId : null): SQL {
  const parts: SQL[] = [];
  if (s.therapist.kind === 'all') parts.push(sql`${invoices.sellerType} = 'therapist'`);
  if (s.therapist.kind === 'own') parts.push(sql`(${invoices.sellerType} = 'therapist' and ${invoices.ownerId} = ${ownerId})`);
  if (s.workspace) parts.push(sql`${invoices.sellerType} = 'workspace'`);
  return parts.length ? or(...parts)! : sql`false`;
}

/**
 * An invoice's lines in order, as rows of `invoiceLines` (camelCase keys; every column is JSON-safe: ids,
 * text, integers), for reading them with the invoice. The outer invoice is named in full: in a select
 * list drizzle writes a column without its table, which inside this subquery would be the line's own.
 */
const linesJson = sql<InvoiceLineRow[]>`coalesce((select json_agg(json_build_object(${sql.join(
  Object.entries(getTableColumns(invoiceLines)).map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`),
  sql`, `,
)}) order by ${invoiceLines.position}) from ${invoiceLines} where ${invoiceLines.invoiceId} = ${sql.identifier('invoices')}.${sql.identifier('id')}), '[]'::json)`;

const escapeLike = (q: string) => q.replace(/[\\%_]/g, (m) => `\\${m}`);

const findWithLinesQuery = reusableQuery<
  { workspaceId: string; id: string; ownerId: string | null },
  { row: InvoiceRow; lines: InvoiceLineRow[] }[]
>('invoice_with_lines', (db, shape) => {
  const [kind, ...flags] = shape.split('_') as ['all' | 'own' | 'none', ...string[]];
  const s: InvoiceScope = { therapist: kind === 'own' ? { kind, ownerId: '' } : { kind }, workspace: flags.includes('ws') };
  const q = db
    .select({ row: invoices, lines: linesJson })
    .from(invoices)
    .where(
      and(
        eq(invoices.workspaceId, sql.placeholder('workspaceId')),
        eq(invoices.id, sql.placeholder('id')),
        scoped(s, sql.placeholder('ownerId')),
      ),
    );
  return flags.includes('lock') ? q.for('update', { of: invoices }) : q;
});

export function invoicesRepository(db: DbOrTx) {
  const where = (workspaceId: string, s: InvoiceScope, f: Partial<InvoiceListQuery>) =>
    and(
      eq(invoices.workspaceId, workspaceId),
      scoped(s),
      f.from ? gte(invoices.issueDate, f.from) : undefined,
      f.to ? lte(invoices.issueDate, f.to) : undefined,
      f.status ? eq(invoices.status, f.status) : undefined,
      f.paymentStatus ? eq(invoices.paymentStatus, f.paymentStatus) : undefined,
      f.therapistId ? eq(invoices.ownerId, f.therapistId) : undefined,
      f.patientId ? eq(invoices.patientId, f.patientId) : undefined,
      f.series ? eq(invoices.series, f.series) : undefined,
      f.q
        ? or(ilike(invoices.number, `%${escapeLike(f.q)}%`), sql`${invoices.buyer}->>'fullName' ilike ${`%${escapeLike(f.q)}%`}`)
        : undefined,
    );
  return {
    /** The series the member's invoices are numbered in (`2026`, `R2026`, `F-2026`…), newest year first. */
    async series(workspaceId: string, s: InvoiceScope): Promise<string[]> {
      const rows = await db
        .selectDistinct({ series: invoices.series })
        .from(invoices)
        .where(and(eq(invoices.workspaceId, workspaceId), scoped(s), sql`${invoices.series} is not null`));
      const yearOf = (x: string) => x.slice(-4);
      return rows.map((r) => r.series!).sort((a, b) => yearOf(b).localeCompare(yearOf(a)) || a.localeCompare(b));
    },
    /** A page, newest first (drafts, which have no date, on top), with the count and the sums of every match (voided ones left out of the sums). */
    async list(workspaceId: string, s: InvoiceScope, f: InvoiceListQuery) {
      const w = where(workspaceId, s, f);
      const rows = await db
        .select()
        .from(invoices)
        .where(w)
        .orderBy(sql`${invoices.issueDate} desc nulls first`, desc(invoices.sequence), desc(invoices.createdAt))
        .limit(f.pageSize)
        .offset((f.page - 1) * f.pageSize);
      // A voided invoice keeps its row (and its number) but counts for nothing.
      const counted = sql`${invoices.status} <> 'voided'`;
      const [sum] = await db
        .select({
          count: sql<number>`count(*)::int`,
          subtotal: sql<number>`coalesce(sum(${invoices.subtotal}) filter (where ${counted}), 0)::int`,
          vat: sql<number>`coalesce(sum(${invoices.vat}) filter (where ${counted}), 0)::int`,
          withholding: sql<number>`coalesce(sum(${invoices.withholding}) filter (where ${counted}), 0)::int`,
          total: sql<number>`coalesce(sum(${invoices.total}) filter (where ${counted}), 0)::int`,
        })
        .from(invoices)
        .where(w);
      return { rows, sum: sum! };
    },
    async find(workspaceId: string, id: string, s: InvoiceScope, lock = false): Promise<InvoiceRow | undefined> {
      const q = db
        .select()
        .from(invoices)
        .where(and(eq(invoices.workspaceId, workspaceId), eq(invoices.id, id), scoped(s)));
      const [row] = lock ? await q.for('update') : await q;
      return row;
    },
    /** `find` and `lines` in one statement (the lock, when asked, is the invoice row's only); built once per scope's shape (issuing's hot path). */
    async findWithLines(
      workspaceId: string,
      id: string,
      s: InvoiceScope,
      lock = false,
    ): Promise<{ row: InvoiceRow; lines: InvoiceLineRow[] } | undefined> {
      const shape = `${s.therapist.kind}${s.workspace ? '_ws' : ''}${lock ? '_lock' : ''}`;
      const ownerId = s.therapist.kind === 'own' ? s.therapist.ownerId : null;
      const [found] = await findWithLinesQuery(db, shape, { workspaceId, id, ownerId });
      return found;
    },
    /** Any invoice by its id, without a member's scope (the payments module's jobs and webhooks, through invoice-payment-state.ts). */
    async byId(id: string, lock = false): Promise<InvoiceRow | undefined> {
      const q = db.select().from(invoices).where(eq(invoices.id, id));
      const [row] = lock ? await q.for('update') : await q;
      return row;
    },
    /** The payment fields, the only ones an issued invoice lets change (the migration's trigger refuses the rest). */
    async setPayment(
      id: string,
      values: { paymentStatus: InvoiceRow['paymentStatus']; paymentType?: InvoiceRow['paymentType']; paidAt?: Date | null },
    ): Promise<InvoiceRow | undefined> {
      const [row] = await db
        .update(invoices)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(invoices.id, id))
        .returning();
      return row;
    },
    /** A seller's series counters of one year: the last number each gave. */
    seriesCounters(sellerKey: string, year: number) {
      return db
        .select({ kind: invoiceCounters.kind, prefix: invoiceCounters.prefix, last: invoiceCounters.last })
        .from(invoiceCounters)
        .where(and(eq(invoiceCounters.sellerKey, sellerKey), eq(invoiceCounters.year, year)));
    },
    async lines(invoiceId: string): Promise<InvoiceLineRow[]> {
      return db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, invoiceId)).orderBy(asc(invoiceLines.position));
    },
    async insert(values: typeof invoices.$inferInsert): Promise<InvoiceRow> {
      const [row] = await db.insert(invoices).values(values).returning();
      return row!;
    },
    /** Several drafts in one statement (a batch's chunk), as stored. */
    async insertMany(values: (typeof invoices.$inferInsert)[]): Promise<InvoiceRow[]> {
      return values.length ? db.insert(invoices).values(values).returning() : [];
    },
    /** Lines of several drafts in one statement, as stored (in no particular order). */
    async insertLinesOf(lines: (typeof invoiceLines.$inferInsert)[]): Promise<InvoiceLineRow[]> {
      return lines.length ? db.insert(invoiceLines).values(lines).returning() : [];
    },
    async update(id: string, values: Partial<typeof invoices.$inferInsert>): Promise<InvoiceRow> {
      const [row] = await db
        .update(invoices)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(invoices.id, id))
        .returning();
      return row!;
    },
    async replaceLines(invoice: InvoiceRef, lines: LineValues[]): Promise<void> {
      const { id: invoiceId, workspaceId } = invoice;
      await db.delete(invoiceLines).where(and(eq(invoiceLines.workspaceId, workspaceId), eq(invoiceLines.invoiceId, invoiceId)));
      if (lines.length) await db.insert(invoiceLines).values(lines.map((l) => ({ ...l, workspaceId, invoiceId })));
    },
    /** A new draft's lines, as stored, in order. */
    async insertLines(invoice: InvoiceRef, lines: LineValues[]): Promise<InvoiceLineRow[]> {
      if (!lines.length) return [];
      const rows = await db
        .insert(invoiceLines)
        .values(lines.map((l) => ({ ...l, workspaceId: invoice.workspaceId, invoiceId: invoice.id })))
        .returning();
      return rows.sort((a, b) => a.position - b.position);
    },
    async delete(id: string): Promise<void> {
      await db.delete(invoices).where(eq(invoices.id, id));
    },
    /** The rectifying invoices that correct this one, oldest first. */
    async rectifiedBy(invoiceId: string) {
      return db
        .select({
          id: invoices.id,
          number: invoices.number,
          method: invoices.rectificationMethod,
          issueDate: invoices.issueDate,
          status: invoices.status,
        })
        .from(invoices)
        .where(eq(invoices.rectifiesId, invoiceId))
        .orderBy(asc(invoices.issuedAt), asc(invoices.createdAt));
    },
    /** A patient's issued and voided invoices (never a draft), latest first: the patient's own list in the companion. */
    ofPatient(workspaceId: string, patientId: string, limit = 200): Promise<InvoiceRow[]> {
      return db
        .select()
        .from(invoices)
        .where(and(eq(invoices.workspaceId, workspaceId), eq(invoices.patientId, patientId), sql`${invoices.status} <> 'draft'`))
        .orderBy(desc(invoices.issueDate), desc(invoices.sequence), desc(invoices.createdAt))
        .limit(limit);
    },
    /** The registration record of an issued invoice (its fingerprint, for the QR and the PDF). */
    async registration(invoiceId: string) {
      const [row] = await db
        .select()
        .from(verifactuRecords)
        .where(and(eq(verifactuRecords.invoiceId, invoiceId), eq(verifactuRecords.recordType, 'registration')))
        .limit(1);
      return row;
    },
  };
}
