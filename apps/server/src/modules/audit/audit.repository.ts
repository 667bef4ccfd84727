import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { auditEvents } from './audit.tables';

export type AuditEventRow = typeof auditEvents.$inferSelect;
/** An audit row's details: values, or an expression of the statement the row rides in (a value another CTE computes). */
export type AuditDetails = Record<string, unknown> | SQL;
/** An audit insert not yet run, for a caller that sends it with its own write. */
export type AuditStatement = SQL;

export function auditRepository(db: DbOrTx) {
  return {
    async insert(values: typeof auditEvents.$inferInsert) {
      await db.insert(auditEvents).values(values);
    },
    /** `details` may be an expression of the statement it rides in (e.g. a value another CTE computes). */
    insertStatement(values: Omit<typeof auditEvents.$inferInsert, 'details'> & { details: AuditDetails }): AuditStatement {
      return db.insert(auditEvents).values(values).getSQL();
    },
    async list(workspaceId: string, limit: number, before?: Date): Promise<AuditEventRow[]> {
      return db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.workspaceId, workspaceId), before ? lt(auditEvents.createdAt, before) : undefined))
        .orderBy(desc(auditEvents.createdAt))
        .limit(limit);
    },
  };
}
