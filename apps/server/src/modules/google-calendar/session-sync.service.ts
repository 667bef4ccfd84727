import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/database';
import type { Jobs, QueueDefinition } from '../../platform/jobs/jobs';
import type { PatientsService } from '../patients/patients.service';
import type { CalendarSession, CalendarSessions } from '../sessions/calendar-sync.queries';
import { GoogleApiError, meetLinkOf, type GoogleCalendarApi } from './google-api';
import { googleCalendarRepository } from './google-calendar.repository';
import type { GoogleConnectionRow } from './google-calendar.tables';
import { GoogleGrantRevoked, type GoogleTokens } from './google-tokens';
import { eventIdOf, eventOf, titleOf, wantsMeet, type TitleParts } from './session-events';

export const SESSION_QUEUE = 'google-calendar.session';
/** The reconciliation looks at sessions from a day back (an event of a session just ended still follows it), at most this many. */
const RECONCILE_FROM_MS = 86_400_000;
const RECONCILE_MAX = 5_000;
type SessionJob = { sessionId: string };

type Deps = {
  db: Db;
  jobs: Jobs;
  api: GoogleCalendarApi;
  tokens: GoogleTokens;
  sessions: CalendarSessions;
  patients: PatientsService;
  publicUrl: string;
  log: FastifyBaseLogger;
};

/**
 * Diván → Google: one job per session (keyed by it: any number of changes while one waits is one run)
 * reads the session as it is now and makes the therapist's Diván calendar agree — the event inserted,
 * patched, or deleted. The mapping (connection, session) → event keeps one event per session; the
 * event's id is derived from the session's, so a retry after Google created it finds it (409) instead
 * of creating a second.
 */
export class SessionSync {
  constructor(private readonly d: Deps) {}

  readonly queue: QueueDefinition<SessionJob> = {
    name: SESSION_QUEUE,
    work: ({ sessionId }) => this.sync(sessionId),
    retryLimit: 6,
    retryDelaySeconds: 5,
    retryBackoff: true,
  };

  /** Queues the session's sync when its therapist (or an earlier one) has a connection. */
  async changed(workspaceId: string, therapistId: string, sessionId: string) {
    const repo = googleCalendarRepository(this.d.db);
    if (!(await repo.connectionOf(workspaceId, therapistId)) && !(await repo.eventsOfSession(sessionId)).length) return;
    await this.enqueue(sessionId);
  }

  /** One waiting job per session; while one runs, one more waits behind it (it reads the newer state). */
  async enqueue(sessionId: string) {
    if ((await this.d.jobs.reschedule(SESSION_QUEUE, sessionId, { sessionId })) === null)
      await this.d.jobs.reschedule(SESSION_QUEUE, `${sessionId}:again`, { sessionId }, { startAfter: new Date(Date.now() + 1_000) });
  }

  async sync(sessionId: string) {
    const repo = googleCalendarRepository(this.d.db);
    const s = await this.d.sessions.session(sessionId);
    const target = s ? await repo.connectionOf(s.workspaceId, s.therapistId) : undefined;
    const mappings = await repo.eventsOfSession(sessionId);
    const keep = !!s && !!target?.divanCalendarId && s.status !== 'canceled' && this.eligible(s, target, mappings.length > 0);
    // Events of other connections (the session changed therapist), or of a canceled or deleted session, go.
    for (const m of mappings) {
      if (keep && m.connectionId === target!.id) continue;
      const conn = await repo.connection(m.connectionId);
      if (conn?.divanCalendarId)
        await this.guard(conn, (token) => this.d.api.deleteEvent(token, conn.divanCalendarId!, m.googleEventId), true);
      await repo.dropSessionEvent(m.connectionId, sessionId);
    }
    if (keep) await this.upsert(s, target!);
  }

  /**
   * What a lost job leaves behind, repaired by the poll: sessions are queued after their commit, so a
   * process ending in between drops that one change, and erasing a patient deletes their sessions
   * without an event. The therapist's sessions from yesterday on are compared with the mapping — one
   * changed after its event was written, one eligible without an event, one canceled with an event — and
   * so are mapped sessions that no longer exist or changed hands. Only those are queued (each job reads
   * the session as it is then). Answers how many were queued.
   */
  async reconcile(c: GoogleConnectionRow, now = new Date()): Promise<number> {
    const repo = googleCalendarRepository(this.d.db);
    const [changes, mapped] = await Promise.all([
      this.d.sessions.changesFrom(c.workspaceId, c.userId, new Date(now.getTime() - RECONCILE_FROM_MS), RECONCILE_MAX),
      repo.eventsOfConnection(c.id),
    ]);
    const written = new Map(mapped.map((m) => [m.sessionId, m.updatedAt]));
    const due: string[] = [];
    for (const s of changes) {
      const at = written.get(s.id);
      written.delete(s.id);
      if (at ? s.status === 'canceled' || s.updatedAt > at : s.status !== 'canceled' && this.eligible(s, c, false)) due.push(s.id);
    }
    // Mapped and outside the window: past sessions (left alone), or gone, or now another therapist's.
    const owners = await this.d.sessions.owners([...written.keys()]);
    for (const id of written.keys()) {
      const o = owners.get(id);
      if (!o || o.workspaceId !== c.workspaceId || o.therapistId !== c.userId) due.push(id);
    }
    for (const id of due) await this.enqueue(id);
    return due.length;
  }

  /** Sessions created after connecting, or any once the therapist asked for the existing ones, or one already sent. */
  private eligible(s: Pick<CalendarSession, 'createdAt'>, c: GoogleConnectionRow, mapped: boolean) {
    return mapped || !!c.existingSyncedAt || s.createdAt.getTime() >= c.connectedAt.getTime();
  }

  private async upsert(s: CalendarSession, c: GoogleConnectionRow) {
    const repo = googleCalendarRepository(this.d.db);
    const calendarId = c.divanCalendarId!;
    const mapping = await repo.sessionEvent(c.id, s.id);
    const title = titleOf(c.titleFormat, await this.patientOf(s, c));
    const meet = wantsMeet(s);
    const hadMeet = !!mapping?.meetLink;
    const body = eventOf(s, title, { publicUrl: this.d.publicUrl, addMeet: meet && !hadMeet, dropMeet: !meet && hadMeet });
    const eventId = mapping?.googleEventId ?? eventIdOf(s.id);
    const patch = (token: string) => this.d.api.patchEvent(token, calendarId, eventId, body);
    const event = await this.guard(c, async (token) => {
      if (mapping) {
        try {
          return await patch(token);
        } catch (err) {
          // Deleted in Google by hand: created again (same id: Google restores it).
          if (!(err instanceof GoogleApiError && (err.notFound || err.gone))) throw err;
        }
      }
      try {
        return await this.d.api.insertEvent(token, calendarId, { ...body, id: eventId });
      } catch (err) {
        // It exists already (a retry after Google created it, or one deleted earlier): patched back to confirmed.
        if (err instanceof GoogleApiError && err.status === 409) return patch(token);
        throw err;
      }
    });
    if (!event) return;
    await repo.saveSessionEvent({
      workspaceId: c.workspaceId,
      connectionId: c.id,
      sessionId: s.id,
      googleEventId: event.id,
      etag: event.etag ?? null,
      meetLink: meet ? (meetLinkOf(event) ?? mapping?.meetLink ?? null) : null,
    });
  }

  private async patientOf(s: CalendarSession, c: GoogleConnectionRow): Promise<TitleParts> {
    if (c.titleFormat === 'generic') return null;
    const [full, contact] = await Promise.all([
      this.d.patients.namesOf(s.workspaceId, [s.patientId]),
      c.titleFormat === 'first_name' ? this.d.patients.contactOf(s.workspaceId, s.patientId) : Promise.resolve(null),
    ]);
    const fullName = full.get(s.patientId);
    if (!fullName) return null;
    return { fullName, firstName: contact?.firstName ?? fullName.split(/\s+/)[0]! };
  }

  /**
   * A Google call as a job makes it: transient failures (429, 5xx, the network) throw for the job's
   * retry with backoff; Google's refusal of this one change (400, 403) is logged and dropped; a revoked
   * grant is logged (the therapist reconnects). `gone`: 404/410 mean done (deleting what is gone).
   */
  private async guard<T>(c: GoogleConnectionRow, call: (token: string) => Promise<T>, goneIsDone = false): Promise<T | undefined> {
    try {
      return await this.d.tokens.with(c, call);
    } catch (err) {
      if (err instanceof GoogleGrantRevoked) {
        this.d.log.warn({ connection: c.id }, 'google calendar: grant revoked, nothing sent');
        return undefined;
      }
      if (err instanceof GoogleApiError && !err.transient) {
        if (!(goneIsDone && (err.notFound || err.gone)))
          this.d.log.warn({ connection: c.id, status: err.status, reason: err.reason }, 'google calendar: change refused');
        return undefined;
      }
      throw err;
    }
  }
}
