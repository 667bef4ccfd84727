import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../../platform/db/database';
import { verifactuChains, verifactuRecords, type VerifactuRecordRow } from '../../invoices.tables';
import { verifactuSenders, verifactuSubmissions, type VerifactuSenderRow } from './aeat.tables';
import type { RecordOutcome } from './soap';

/** The queries of the sending: what an issuer has left to send, and the bookkeeping of each submission. */
export function submissionsRepository(db: DbOrTx) {
  const repo = {
    /**
     * Takes the issuer's sending for `leaseMs` if no submission is in flight and its wait is over; null
     * otherwise (the row tells until when). Values come from the sending's clock, never the database's.
     */
    async leaseSender(issuerTaxId: string, now: Date, leaseMs: number): Promise<VerifactuSenderRow | null> {
      const until = new Date(now.getTime() + leaseMs);
      const [row] = await db
        .insert(verifactuSenders)
        .values({ issuerTaxId, leaseUntil: until, updatedAt: now })
        .onConflictDoUpdate({
          target: verifactuSenders.issuerTaxId,
          set: { leaseUntil: until, updatedAt: now },
          setWhere: sql`(${verifactuSenders.leaseUntil} IS NULL OR ${verifactuSenders.leaseUntil} <= ${now}) AND (${verifactuSenders.notBefore} IS NULL OR ${verifactuSenders.notBefore} <= ${now})`,
        })
        .returning();
      return row ?? null;
    },

    async senderOf(issuerTaxId: string): Promise<VerifactuSenderRow | undefined> {
      return (await db.select().from(verifactuSenders).where(eq(verifactuSenders.issuerTaxId, issuerTaxId)))[0];
    },

    /** Ends a lease and sets when the next submission may go. */
    async releaseSender(issuerTaxId: string, set: { notBefore?: Date | null; failures?: number; lastError?: string | null; now: Date }) {
      const { now, ...rest } = set;
      await db
        .update(verifactuSenders)
        .set({ ...rest, leaseUntil: null, updatedAt: now })
        .where(eq(verifactuSenders.issuerTaxId, issuerTaxId));
    },

    /**
     * The issuer's records still to send, in chain order, at most `limit`: those pending after an earlier
     * attempt, then those never put in a submission (past `sentThrough`). Accepted and rejected ones never.
     */
    async unsentRecords(issuerTaxId: string, sentThrough: number, limit: number): Promise<VerifactuRecordRow[]> {
      const pending = await db
        .select({ record: verifactuRecords })
        .from(verifactuSubmissions)
        .innerJoin(verifactuRecords, eq(verifactuRecords.id, verifactuSubmissions.recordId))
        .where(and(eq(verifactuSubmissions.issuerTaxId, issuerTaxId), eq(verifactuSubmissions.state, 'pending')))
        .orderBy(asc(verifactuSubmissions.position))
        .limit(limit);
      const fresh = await db
        .select()
        .from(verifactuRecords)
        .where(and(eq(verifactuRecords.issuerTaxId, issuerTaxId), gt(verifactuRecords.position, sentThrough)))
        .orderBy(asc(verifactuRecords.position))
        .limit(limit);
      return [...pending.map((p) => p.record), ...fresh].sort((a, b) => a.position - b.position).slice(0, limit);
    },

    /** True when the issuer has a pending record or one never put in a submission. */
    async hasUnsent(issuerTaxId: string): Promise<boolean> {
      const sender = await repo.senderOf(issuerTaxId);
      return (await repo.unsentRecords(issuerTaxId, sender?.sentThrough ?? 0, 1)).length > 0;
    },

    /** Issuers with something to send (bounded by the number of issuers): for the catch-up sweep. */
    async issuersWithUnsent(limit: number): Promise<string[]> {
      const res = (await db.execute(sql`
        SELECT c.issuer_tax_id FROM ${verifactuChains} c LEFT JOIN ${verifactuSenders} s ON s.issuer_tax_id = c.issuer_tax_id
        WHERE c.length > COALESCE(s.sent_through, 0)
        UNION
        SELECT DISTINCT issuer_tax_id FROM ${verifactuSubmissions} WHERE state = 'pending'
        LIMIT ${limit}`)) as unknown as { rows: { issuer_tax_id: string }[] };
      return res.rows.map((r) => r.issuer_tax_id);
    },

    /** Before sending: every record of the batch has its row, pending, one attempt more; the issuer's high-water mark moves. */
    async markAttempt(records: VerifactuRecordRow[], now: Date) {
      const issuerTaxId = records[0]!.issuerTaxId;
      await db
        .insert(verifactuSubmissions)
        .values(
          records.map((r) => ({
            recordId: r.id,
            issuerTaxId,
            position: r.position,
            invoiceId: r.invoiceId,
            workspaceId: r.workspaceId,
            attempts: 1,
            lastAttemptAt: now,
            updatedAt: now,
          })),
        )
        .onConflictDoUpdate({
          target: verifactuSubmissions.recordId,
          set: { attempts: sql`${verifactuSubmissions.attempts} + 1`, lastAttemptAt: now, nextAttemptAt: null, updatedAt: now },
          setWhere: eq(verifactuSubmissions.state, 'pending'),
        });
      const through = Math.max(...records.map((r) => r.position));
      await db
        .update(verifactuSenders)
        .set({ sentThrough: sql`GREATEST(${verifactuSenders.sentThrough}, ${through})`, updatedAt: now })
        .where(eq(verifactuSenders.issuerTaxId, issuerTaxId));
    },

    /**
     * The AEAT's answer, record by record (one UPDATE per distinct outcome, not per record). Only a pending
     * row changes: a decided record is never reopened.
     */
    async recordAnswer(records: VerifactuRecordRow[], outcomes: RecordOutcome[], csv: string | null, now: Date, retryAt: Date) {
      const groups = new Map<string, { outcome: RecordOutcome; ids: string[] }>();
      for (const [i, r] of records.entries()) {
        const o = outcomes[i]!;
        const key = JSON.stringify([o.state, o.errorCode, o.errorDescription]);
        const g = groups.get(key) ?? { outcome: o, ids: [] };
        g.ids.push(r.id);
        groups.set(key, g);
      }
      for (const { outcome: o, ids } of groups.values()) {
        const decided = o.state !== 'pending';
        await db
          .update(verifactuSubmissions)
          .set({
            state: o.state,
            csv: decided ? csv : null,
            errorCode: o.errorCode,
            errorDescription: o.errorDescription,
            decidedAt: decided ? now : null,
            nextAttemptAt: decided ? null : retryAt,
            updatedAt: now,
          })
          .where(and(inArray(verifactuSubmissions.recordId, ids), eq(verifactuSubmissions.state, 'pending')));
      }
    },

    /** A failed submission: the records stay pending, with why and when they go again. */
    async recordFailure(records: VerifactuRecordRow[], error: { code: string; description: string }, now: Date, retryAt: Date) {
      await db
        .update(verifactuSubmissions)
        .set({ errorCode: error.code, errorDescription: error.description, nextAttemptAt: retryAt, updatedAt: now })
        .where(
          and(
            inArray(
              verifactuSubmissions.recordId,
              records.map((r) => r.id),
            ),
            eq(verifactuSubmissions.state, 'pending'),
          ),
        );
    },

    /** The records of an invoice with their submission (none yet: null), oldest first. */
    async ofInvoice(workspaceId: string, invoiceId: string) {
      return db
        .select({ record: verifactuRecords, submission: verifactuSubmissions })
        .from(verifactuRecords)
        .leftJoin(verifactuSubmissions, eq(verifactuSubmissions.recordId, verifactuRecords.id))
        .where(and(eq(verifactuRecords.workspaceId, workspaceId), eq(verifactuRecords.invoiceId, invoiceId)))
        .orderBy(asc(verifactuRecords.position));
    },
  };
  return repo;
}
