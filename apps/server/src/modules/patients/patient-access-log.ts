import type { Db, DbOrTx } from '../../platform/db/database';
import type { Caller } from '../../platform/auth/caller';
import { accessLogRepository } from './patient-access-log.repository';
import { fullName, presentAccess } from './patient-presenter';
import type { PatientRow } from './patients.tables';

/** Who opened which clinical file and what they did: written by every reading module, read by administrators. */
export class PatientAccessLog {
  constructor(
    private readonly db: Db,
    private readonly names: (ids: (string | null)[]) => Promise<Map<string, string>>,
  ) {}

  record = (c: Caller, p: Pick<PatientRow, 'id' | 'workspaceId' | 'firstName' | 'lastName'>, action: string, tx: DbOrTx = this.db) =>
    accessLogRepository(tx).insert({ workspaceId: p.workspaceId, patientId: p.id, patientName: fullName(p), userId: c.userId, action });

  async read(workspaceId: string, patientId: string | undefined, limit: number, before?: string) {
    const rows = await accessLogRepository(this.db).list(workspaceId, patientId, limit, before ? new Date(before) : undefined);
    const names = await this.names(rows.map((r) => r.userId));
    return rows.map((r) => presentAccess(r, names));
  }
}
