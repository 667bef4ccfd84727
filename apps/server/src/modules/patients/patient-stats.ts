import { dbOf, type DbSource } from '../../platform/db/read-routing';
import { namesOf } from './patient-lookups';
import { fullName } from './patient-presenter';
import { patientStatsQueries, type PatientBreakdown, type PatientStatsFilter } from './patient-stats.queries';

export type { PatientBreakdown, PatientStatsFilter };

/**
 * The port the statistics read patients through (issue 28): counts by the assigned therapist, the
 * breakdowns of a set of patients, ended treatments. Which of them a member may see (Recepción reads
 * no treatment) the analytics service decides with core's field map before asking.
 */
export class PatientStats {
  /** `reads`: the statistics' queries go where the enclosing `onReplica` chose (platform/db/read-routing.ts). */
  constructor(private readonly reads: DbSource) {}

  private get db() {
    return dbOf(this.reads);
  }

  private get q() {
    return patientStatsQueries(this.db);
  }

  added = (f: PatientStatsFilter, from: Date, to: Date) => this.q.added(f, from, to);
  statusNow = (f: PatientStatsFilter) => this.q.statusNow(f);
  dischargedByReason = (f: PatientStatsFilter, fromDay: string, toDay: string) => this.q.dischargedByReason(f, fromDay, toDay);
  breakdown = (f: PatientStatsFilter, ids: string[], column: PatientBreakdown) => this.q.breakdown(f, ids, column);
  ended = (f: PatientStatsFilter, fromDay: string, toDay: string) => this.q.ended(f, fromDay, toDay);

  /** Patients' full names by id (what a session row shows). */
  names = (workspaceId: string, ids: string[]) => namesOf(this.db, workspaceId, ids);

  async card(f: PatientStatsFilter, which: Parameters<ReturnType<typeof patientStatsQueries>['card']>[1], limit: number) {
    const { rows, total } = await this.q.card(f, which, limit);
    return { total, rows: rows.map((r) => ({ id: r.id, name: fullName(r), createdAt: r.createdAt, endDay: r.endDay, reason: r.reason })) };
  }
}
