import { PATIENT_SESSIONS_PAGE, scopeFor, type PatientSessions, type PatientSessionTotals } from '@divan/core';
import type { Db } from '../../platform/db/database';
import type { Caller } from '../../platform/auth/caller';
import type { PatientsService } from '../patients/patients.service';
import type { SessionsService } from './sessions.service';
import { patientSessionsRepository } from './patient-sessions.repository';

/**
 * The patient's `sessions` tab: their sessions newest first, a page at a time, with totals over all of
 * them. The patient must be readable by the member (its file's permission and scope) and the sessions
 * follow the member's session scope: a Terapeuta restricted to their own sees only theirs, and the
 * totals count only those.
 */
export class PatientSessionsService {
  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
    private readonly sessions: SessionsService,
  ) {}

  async list(c: Caller, patientId: string, page: number, now = new Date()): Promise<PatientSessions> {
    const p = await this.patients.accessible(c, patientId, 'read', 'patient_files');
    const scope = scopeFor(c.member.ability, 'read', 'sessions', c.userId);
    const empty: PatientSessionTotals = {
      total: 0,
      attended: 0,
      canceled: 0,
      noShows: 0,
      lateCancellations: 0,
      upcoming: 0,
      pendingPayment: 0,
      pendingPaymentAmount: 0,
    };
    if (scope.kind === 'none') return { items: [], page, pageSize: PATIENT_SESSIONS_PAGE, totals: empty };
    const { rows, totals } = await patientSessionsRepository(this.db).tab(
      p.workspaceId,
      p.id,
      scope.kind === 'own' ? scope.ownerId : undefined,
      { number: page, size: PATIENT_SESSIONS_PAGE },
      now,
    );
    const items = await this.sessions.present(c, rows);
    return { items, page, pageSize: PATIENT_SESSIONS_PAGE, totals: totals ?? empty };
  }
}
