import { and, asc, eq, gte, inArray, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { locations, sessions } from './sessions.tables';

/**
 * What an outside calendar (Google Calendar, issue 30) may learn of a session: its time, state, kind
 * and place, never a clinical field (no note, no motive). The patient's name comes from the patients
 * module, in the form the therapist chose.
 */
export type CalendarSession = {
  id: string;
  workspaceId: string;
  therapistId: string;
  patientId: string;
  startsAt: Date;
  endsAt: Date;
  timeZone: string;
  status: 'pending' | 'completed' | 'canceled';
  modality: 'presential' | 'online';
  videoConference: 'own' | 'google_meet' | null;
  locationName: string | null;
  createdAt: Date;
};

export const calendarSyncQueries = (db: DbOrTx) => ({
  async session(sessionId: string): Promise<CalendarSession | undefined> {
    const [row] = await db
      .select({
        id: sessions.id,
        workspaceId: sessions.workspaceId,
        therapistId: sessions.therapistId,
        patientId: sessions.patientId,
        startsAt: sessions.startsAt,
        endsAt: sessions.endsAt,
        timeZone: sessions.timeZone,
        status: sessions.status,
        modality: sessions.modality,
        videoConference: sessions.videoConference,
        locationName: locations.name,
        createdAt: sessions.createdAt,
      })
      .from(sessions)
      .leftJoin(locations, eq(locations.id, sessions.locationId))
      .where(eq(sessions.id, sessionId));
    return row;
  },

  /** The therapist's sessions not canceled starting from `from`, by start (at most `limit`). */
  async futureIds(workspaceId: string, therapistId: string, from: Date, limit: number): Promise<string[]> {
    const rows = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(
        and(
          eq(sessions.workspaceId, workspaceId),
          eq(sessions.therapistId, therapistId),
          gte(sessions.startsAt, from),
          ne(sessions.status, 'canceled'),
        ),
      )
      .orderBy(asc(sessions.startsAt))
      .limit(limit);
    return rows.map((r) => r.id);
  },

  /** The therapist's sessions starting from `from`, canceled ones too, with when each last changed (the reconciliation's view). */
  async changesFrom(workspaceId: string, therapistId: string, from: Date, limit: number): Promise<SessionChange[]> {
    return db
      .select({ id: sessions.id, status: sessions.status, createdAt: sessions.createdAt, updatedAt: sessions.updatedAt })
      .from(sessions)
      .where(and(eq(sessions.workspaceId, workspaceId), eq(sessions.therapistId, therapistId), gte(sessions.startsAt, from)))
      .orderBy(asc(sessions.startsAt))
      .limit(limit);
  },

  /** Who each of these sessions belongs to now; a session deleted (or erased with its patient) is missing. */
  async owners(ids: string[]): Promise<Map<string, { workspaceId: string; therapistId: string }>> {
    if (!ids.length) return new Map();
    const rows = await db
      .select({ id: sessions.id, workspaceId: sessions.workspaceId, therapistId: sessions.therapistId })
      .from(sessions)
      .where(inArray(sessions.id, ids));
    return new Map(rows.map((r) => [r.id, r]));
  },
});

export type SessionChange = { id: string; status: CalendarSession['status']; createdAt: Date; updatedAt: Date };

/** The port the sessions module gives an outside calendar's sync. */
export type CalendarSessions = {
  session: (sessionId: string) => Promise<CalendarSession | undefined>;
  futureIds: (workspaceId: string, therapistId: string, from: Date, limit: number) => Promise<string[]>;
  changesFrom: (workspaceId: string, therapistId: string, from: Date, limit: number) => Promise<SessionChange[]>;
  owners: (ids: string[]) => Promise<Map<string, { workspaceId: string; therapistId: string }>>;
};

export const calendarSessions = (db: DbOrTx): CalendarSessions => ({
  session: (id) => calendarSyncQueries(db).session(id),
  futureIds: (ws, t, from, limit) => calendarSyncQueries(db).futureIds(ws, t, from, limit),
  changesFrom: (ws, t, from, limit) => calendarSyncQueries(db).changesFrom(ws, t, from, limit),
  owners: (ids) => calendarSyncQueries(db).owners(ids),
});
