import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { clinicalAccessLog } from './patients.tables';

/** The clinical access log's rows: one per opening of a clinical file, newest first when read. */
export function accessLogRepository(db: DbOrTx) {
  return {
    async insert(values: { workspaceId: string; patientId: string; patientName: string; userId: string; action: string }) {
      await db.insert(clinicalAccessLog).values(values);
    },
    async list(workspaceId: string, patientId: string | undefined, limit: number, before?: Date) {
      return db
        .select()
        .from(clinicalAccessLog)
        .where(
          and(
            eq(clinicalAccessLog.workspaceId, workspaceId),
            patientId ? eq(clinicalAccessLog.patientId, patientId) : undefined,
            before ? sql`${clinicalAccessLog.createdAt} < ${before}` : undefined,
          ),
        )
        .orderBy(desc(clinicalAccessLog.createdAt))
        .limit(limit);
    },
  };
}
