import { PATIENT_SESSIONS_PAGE, scopeFor, type PatientSessions, type PatientSessionTotals } from '@divan/core';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import type { Caller } from '../../platform/auth/caller';
import type { PatientsService } from '../patients/patients.service';
import type { SessionsService } from './sessions.service';
import { locations, sessions } from './sessions.tables';

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
    const where = and(
      eq(sessions.workspaceId, p.workspaceId),
      eq(sessions.patientId, p.id),
      scope.kind === 'own' ? eq(sessions.therapistId, scope.ownerId) : undefined,
    );
    const [rows, [totals]] = await Promise.all([
      this.db
        .select({ s: sessions, locationName: locations.name })
        .from(sessions)
        .leftJoin(locations, eq(locations.id, sessions.locationId))
        .where(where)
        .orderBy(desc(sessions.startsAt), desc(sessions.id))
        .limit(PATIENT_SESSIONS_PAGE)
        .offset((page - 1) * PATIENT_SESSIONS_PAGE),
      this.db
        .select({
          total: sql<number>`count(*)::int`,
          attended: sql<number>`count(*) filter (where ${sessions.status} = 'completed')::int`,
          canceled: sql<number>`count(*) filter (where ${sessions.status} = 'canceled')::int`,
          noShows: sql<number>`count(*) filter (where ${sessions.status} = 'canceled' and ${sessions.cancellationReason} = 'no_show')::int`,
          lateCancellations: sql<number>`count(*) filter (where ${sessions.status} = 'canceled' and ${sessions.cancellationReason} = 'late')::int`,
          upcoming: sql<number>`count(*) filter (where ${sessions.status} = 'pending' and ${sessions.startsAt} >= ${now.toISOString()})::int`,
          pendingPayment: sql<number>`count(*) filter (where ${sessions.status} = 'completed' and ${sessions.paymentStatus} = 'pending')::int`,
          pendingPaymentAmount: sql<number>`coalesce(sum(${sessions.price}) filter (where ${sessions.status} = 'completed' and ${sessions.paymentStatus} = 'pending'), 0)::int`,
        })
        .from(sessions)
        .where(where),
    ]);
    const items = await this.sessions.present(
      c,
      rows.map((r) => ({ ...r.s, locationName: r.locationName })),
    );
    return { items, page, pageSize: PATIENT_SESSIONS_PAGE, totals: totals ?? empty };
  }
}
