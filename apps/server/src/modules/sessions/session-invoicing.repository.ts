import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FeeBalanceInput, Scope } from '@divan/core';
import type { DbOrTx } from '../../platform/db/database';
import { sessions, type SessionRow } from './sessions.tables';

/** A session scope that reads something: `none` is answered before any query. */
type ReadScope = Exclude<Scope, { kind: 'none' }>;
const ownedBy = (scope: Scope) => (scope.kind === 'own' ? eq(sessions.therapistId, scope.ownerId) : undefined);

/** The statements behind `SessionInvoicing`: completed sessions as invoices read them, and their `invoiced` flag. */
export function sessionInvoicingRepository(db: DbOrTx) {
  return {
    async isInvoiced(id: string): Promise<boolean> {
      const [row] = await db.select({ invoiced: sessions.invoiced }).from(sessions).where(eq(sessions.id, id));
      return !!row?.invoiced;
    },

    /** The patient's completed sessions not yet invoiced, in the scope, oldest first (at most 500). */
    uninvoiced(workspaceId: string, scope: ReadScope, patientId: string, range?: { from?: Date; to?: Date }): Promise<SessionRow[]> {
      return db
        .select()
        .from(sessions)
        .where(
          and(
            eq(sessions.workspaceId, workspaceId),
            eq(sessions.patientId, patientId),
            eq(sessions.status, 'completed'),
            eq(sessions.invoiced, false),
            ownedBy(scope),
            range?.from ? sql`${sessions.startsAt} >= ${range.from}` : undefined,
            range?.to ? sql`${sessions.startsAt} < ${range.to}` : undefined,
          ),
        )
        .orderBy(asc(sessions.startsAt))
        .limit(500);
    },

    /** Completed sessions started in [from, to), summed by therapist and payments receiver. */
    feeSums(workspaceId: string, from: Date, to: Date): Promise<FeeBalanceInput[]> {
      return db
        .select({
          therapistId: sessions.therapistId,
          receiver: sessions.paymentsReceiver,
          sessions: sql<number>`count(*)::int`,
          priceCents: sql<number>`coalesce(sum(${sessions.price}), 0)::int`,
          feeCents: sql<number>`coalesce(sum(${sessions.fee}), 0)::int`,
          pricedWithFeeCents: sql<number>`coalesce(sum(${sessions.price}) filter (where ${sessions.fee} is not null), 0)::int`,
          sessionsWithFee: sql<number>`(count(*) filter (where ${sessions.fee} is not null))::int`,
        })
        .from(sessions)
        .where(
          and(
            eq(sessions.workspaceId, workspaceId),
            eq(sessions.status, 'completed'),
            sql`${sessions.startsAt} >= ${from} and ${sessions.startsAt} < ${to}`,
          ),
        )
        .groupBy(sessions.therapistId, sessions.paymentsReceiver);
    },

    /** Completed, not-yet-invoiced sessions in the scope started in [from, to) (one therapist's, when given), by patient and start; at most 20,000. */
    uninvoicedInRange(workspaceId: string, scope: ReadScope, from: Date, to: Date, therapistId?: string): Promise<SessionRow[]> {
      return db
        .select()
        .from(sessions)
        .where(
          and(
            eq(sessions.workspaceId, workspaceId),
            eq(sessions.status, 'completed'),
            eq(sessions.invoiced, false),
            sql`${sessions.startsAt} >= ${from} and ${sessions.startsAt} < ${to}`,
            ownedBy(scope),
            therapistId ? eq(sessions.therapistId, therapistId) : undefined,
          ),
        )
        .orderBy(asc(sessions.patientId), asc(sessions.startsAt))
        .limit(20_000);
    },

    /** The patient's completed sessions among `ids` in the scope, locked (start, then id). */
    lockCompleted(workspaceId: string, scope: ReadScope, patientId: string, ids: string[]): Promise<SessionRow[]> {
      return db
        .select()
        .from(sessions)
        .where(
          and(
            eq(sessions.workspaceId, workspaceId),
            eq(sessions.patientId, patientId),
            eq(sessions.status, 'completed'),
            inArray(sessions.id, ids),
            ownedBy(scope),
          ),
        )
        .orderBy(asc(sessions.startsAt), asc(sessions.id))
        .for('update');
    },

    /** The workspace's sessions among `ids`, whatever their state, locked (start, then id). */
    lockMany(workspaceId: string, ids: string[]): Promise<SessionRow[]> {
      return db
        .select()
        .from(sessions)
        .where(and(eq(sessions.workspaceId, workspaceId), inArray(sessions.id, ids)))
        .orderBy(asc(sessions.startsAt), asc(sessions.id))
        .for('update');
    },

    async setInvoiced(workspaceId: string, ids: string[], invoiced: boolean): Promise<void> {
      await db
        .update(sessions)
        .set({ invoiced, updatedAt: new Date() })
        .where(and(eq(sessions.workspaceId, workspaceId), inArray(sessions.id, ids)));
    },
  };
}
