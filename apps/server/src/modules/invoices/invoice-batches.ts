import { and, eq, sql } from 'drizzle-orm';
import { startOfLocalDay, shiftDay, type InvoiceBatch, type InvoiceBatchBody } from '@divan/core';
import type { z } from 'zod';
import type { invoiceBatchPreview } from '@divan/core';
import type { Db, Tx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { JobContext, Jobs } from '../../platform/jobs/jobs';
import type { Caller, PatientsService } from '../patients/patients.service';
import type { SessionInvoicing } from '../sessions/session-invoicing';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import type { GroupOutcome, InvoiceIssuing } from './invoice-issuing';
import { invoiceBatches, type InvoiceBatchRow } from './invoices.tables';
import { mayAct } from './invoice-access';

const QUEUE = 'invoices.batch';
const ZONE = 'Europe/Madrid';
const RETRY_LIMIT = 2;
/** A chunk (one transaction) is this many invoices: its commit shows the progress (~0.1 s each on PostgreSQL). */
const CHUNK_INVOICES = 25;
const FAILED = 'No se pudo terminar el lote por un error inesperado. Las facturas emitidas siguen siendo válidas; vuelve a crear el lote para el resto.';
type Group = { patientId: string; therapistId: string; sessionIds: string[]; totalCents: number };

/**
 * Batches (Advance plan, §5): for a period, one invoice per patient and therapist for their completed,
 * not-yet-invoiced sessions, previewed, then issued by a job in chunks: one transaction per chunk, whose
 * invoices are checked before anything is written (one that would fail is left out and listed in the
 * errors; see `InvoiceIssuing.invoiceGroups`), the chunk's progress written in it. The job re-resolves the member's permissions when it
 * runs, a retry picks up what is left (issued sessions are invoiced, so they are not grouped again), and
 * the last failed attempt marks the batch failed.
 */
export class InvoiceBatches {
  constructor(
    private readonly db: Db,
    private readonly jobs: Jobs,
    private readonly issuing: InvoiceIssuing,
    private readonly sessions: SessionInvoicing,
    private readonly patients: PatientsService,
    private readonly workspaces: WorkspacesService,
  ) {
    jobs.define<{ batchId: string }>({ name: QUEUE, work: (d, job) => this.run(d.batchId, job), expireInSeconds: 900, retryLimit: RETRY_LIMIT, retryDelaySeconds: 5, pollingIntervalSeconds: 2 });
  }

  async preview(c: Caller, b: InvoiceBatchBody): Promise<z.infer<typeof invoiceBatchPreview>> {
    await this.assertAllowed(c);
    const groups = await this.groups(c, b);
    const names = await this.patients.namesOf(c.member.workspaceId, [...new Set(groups.map((g) => g.patientId))]);
    return {
      items: groups.map((g) => ({ patient: { id: g.patientId, name: names.get(g.patientId) ?? '' }, therapistId: g.therapistId, sessions: g.sessionIds.length, totalCents: g.totalCents })),
      invoices: groups.length,
      sessions: groups.reduce((s, g) => s + g.sessionIds.length, 0),
      totalCents: groups.reduce((s, g) => s + g.totalCents, 0),
    };
  }

  async create(c: Caller, b: InvoiceBatchBody): Promise<InvoiceBatch> {
    await this.assertAllowed(c);
    const groups = await this.groups(c, b);
    if (!groups.length) throw new AppError('invoice_batch_empty');
    const row = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(invoiceBatches)
        .values({ workspaceId: c.member.workspaceId, createdBy: c.userId, from: b.from, to: b.to, therapistId: b.therapistId ?? null, total: groups.length })
        .returning();
      await this.jobs.send(QUEUE, { batchId: row!.id }, { key: row!.id, tx });
      return row!;
    });
    return present(row);
  }

  async get(c: Caller, id: string): Promise<InvoiceBatch> {
    const [row] = await this.db.select().from(invoiceBatches).where(and(eq(invoiceBatches.workspaceId, c.member.workspaceId), eq(invoiceBatches.id, id)));
    if (!row) throw new AppError('invoice_batch_not_found');
    return present(row);
  }

  /** The job's attempt: an unexpected error on the last one marks the batch failed (else it would show running forever). */
  private async run(batchId: string, job: JobContext): Promise<void> {
    try {
      await this.work(batchId);
    } catch (err) {
      if (job.retryCount >= RETRY_LIMIT) await this.failed(batchId);
      throw err;
    }
  }

  /** The job: the groups drafted and issued chunk by chunk; each chunk's progress committed with its invoices. */
  async work(batchId: string): Promise<void> {
    const [batch] = await this.db.select().from(invoiceBatches).where(eq(invoiceBatches.id, batchId));
    if (!batch || batch.status === 'done' || batch.status === 'failed') return;
    const member = await this.workspaces.resolveMembership(batch.workspaceId, batch.createdBy);
    if (!member || !member.ability.can('create', 'invoices')) return this.finish(batchId, 'failed', [{ patientId: batch.createdBy, message: 'Ya no tienes permiso para facturar en este espacio.' }]);
    const c: Caller = { member, userId: batch.createdBy };
    const groups = await this.groups(c, { from: batch.from, to: batch.to, therapistId: batch.therapistId ?? undefined });
    await this.db.update(invoiceBatches).set({ status: 'running', total: batch.done + groups.length, updatedAt: new Date() }).where(eq(invoiceBatches.id, batchId));
    const workspaceBilling = await this.workspaces.billingInfo(batch.workspaceId);
    for (let next = 0; next < groups.length; ) {
      const chunk = groups.slice(next, next + CHUNK_INVOICES);
      const outcomes = await this.issuing.invoiceGroups(c, chunk, workspaceBilling, { inTx: (tx, out) => this.progress(tx, batchId, out) });
      next += outcomes.length;
    }
    await this.finish(batchId, 'done');
  }

  /** A chunk's outcome added to the batch, in the chunk's transaction. */
  private async progress(tx: Tx, batchId: string, out: GroupOutcome[]) {
    const ids = out.flatMap((o) => ('row' in o ? [o.row.id] : []));
    const errors = out.flatMap((o) => ('error' in o ? [{ patientId: o.patientId, message: o.error.message }] : []));
    await tx
      .update(invoiceBatches)
      .set({
        done: sql`${invoiceBatches.done} + ${out.length}`,
        invoiceIds: ids.length ? sql`${invoiceBatches.invoiceIds} || ${JSON.stringify(ids)}::jsonb` : undefined,
        errors: errors.length ? sql`${invoiceBatches.errors} || ${JSON.stringify(errors)}::jsonb` : undefined,
        updatedAt: new Date(),
      })
      .where(eq(invoiceBatches.id, batchId));
  }

  private async failed(batchId: string) {
    await this.db
      .update(invoiceBatches)
      .set({ status: 'failed', errors: sql`${invoiceBatches.errors} || jsonb_build_array(jsonb_build_object('patientId', ${invoiceBatches.createdBy}, 'message', ${FAILED}::text))`, updatedAt: new Date() })
      .where(and(eq(invoiceBatches.id, batchId), sql`${invoiceBatches.status} in ('queued', 'running')`));
  }

  private async finish(batchId: string, status: 'done' | 'failed', errors?: { patientId: string; message: string }[]) {
    await this.db
      .update(invoiceBatches)
      .set({ status, ...(errors ? { errors } : {}), updatedAt: new Date() })
      .where(eq(invoiceBatches.id, batchId));
  }

  private async assertAllowed(c: Caller) {
    if (!(await this.workspaces.featuresOf(c.member.workspaceId)).canCreateInvoiceBatch) throw new AppError('invoice_batch_not_allowed');
  }

  /** The period's completed, not-yet-invoiced sessions the member may invoice, by patient and therapist. */
  private async groups(c: Caller, b: InvoiceBatchBody): Promise<Group[]> {
    const from = startOfLocalDay(b.from, ZONE);
    const to = startOfLocalDay(shiftDay(b.to, 1), ZONE);
    const sessions = await this.sessions.uninvoicedInRange(c, from, to, b.therapistId);
    const byKey = new Map<string, Group>();
    for (const s of sessions) {
      const key = `${s.patientId}|${s.therapistId}`;
      const g = byKey.get(key) ?? { patientId: s.patientId, therapistId: s.therapistId, sessionIds: [], totalCents: 0 };
      g.sessionIds.push(s.id);
      g.totalCents += s.price;
      byKey.set(key, g);
    }
    const terms = new Map<string, 'therapist' | 'workspace'>();
    for (const id of new Set([...byKey.values()].map((g) => g.therapistId))) terms.set(id, (await this.workspaces.memberTerms(c.member.workspaceId, id))?.paymentsReceiver ?? 'therapist');
    // Only what the member may invoice: their own (or everyone's) invoices, the workspace's when it receives the payments.
    return [...byKey.values()].filter((g) => mayAct(c, 'create', { sellerType: terms.get(g.therapistId)!, ownerId: g.therapistId }));
  }
}

function present(r: InvoiceBatchRow): InvoiceBatch {
  return { id: r.id, from: r.from, to: r.to, status: r.status, total: r.total, done: r.done, invoiceIds: r.invoiceIds, errors: r.errors, createdAt: r.createdAt.toISOString() };
}
