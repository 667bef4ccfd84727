import type { DbOrTx } from '../../platform/db/database';
import { defineModule, handle } from '../../platform/modules/define-module';
import { BusySync } from './busy-sync.service';
import { Channels } from './channels.service';
import { GoogleCalendarApi } from './google-api';
import { googleCalendarRepository } from './google-calendar.repository';
import { googleCalendarRoutes } from './google-calendar.routes';
import { GoogleCalendarService } from './google-calendar.service';
import { GoogleOAuth } from './google-oauth';
import { GoogleTokens } from './google-tokens';
import { SessionSync } from './session-sync.service';

/** The therapists' outside busy times, for whoever computes their free time (booking's slots). */
export type ExternalBusy = {
  /** The member's busy times overlapping [from, to), merged, read in `db` (the booking's transaction). */
  busyOf: (db: DbOrTx, workspaceId: string, userId: string, from: Date, to: Date) => Promise<{ start: Date; end: Date }[]>;
  /** Called with the workspace whenever some member's busy times changed. */
  onChange: (fn: (workspaceId: string) => void) => void;
};

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** Busy times read from the therapists' Google calendars (booking's free slots lose them). */
    externalBusy: ExternalBusy;
    /** The Google Calendar connection, its syncs and polling (tests run them at once). */
    googleCalendar: { service: GoogleCalendarService; sessions: SessionSync; busy: BusySync; channels: Channels };
  }
}

const SESSION_CHANGES = ['session.created', 'session.updated', 'session.canceled', 'session.completed', 'session.deleted'] as const;

/**
 * Google Calendar (issue 30): a therapist connects their Google account (offline access, the refresh
 * token encrypted like clinical data); their sessions go to a «Diván» calendar by jobs keyed per session,
 * with a Meet link for online sessions that choose it; the busy times of the calendars they choose come
 * back by incremental sync (push channels, polling as fallback) and block their booking slots.
 */
export const googleCalendarModule = defineModule({
  name: 'google-calendar',
  needs: ['sessions', 'patients', 'calendarSessions', 'workspaces'],
  build: (d, p) => {
    const clock = p.clock ?? (() => new Date());
    const g = p.config.googleCalendar;
    const redirectUri = `${p.config.publicUrl}/settings/integrations/google/callback`;
    const oauth = g ? new GoogleOAuth(g, redirectUri) : null;
    const api = new GoogleCalendarApi(g?.apiBase ?? 'https://www.googleapis.com');
    const tokens = new GoogleTokens({ db: p.db, cipher: p.cipher, oauth: () => oauth!, clock });
    const listeners: ((workspaceId: string) => void)[] = [];
    // Some member's busy times changed: the booking's caches hear it, and the member's own open calendars
    // (their sockets in every process) refetch the grey blocks at once.
    const changed = (workspaceId: string, userId: string) => {
      listeners.forEach((fn) => fn(workspaceId));
      p.realtime
        .toUser(userId, 'google-busy-changed', { workspaceId })
        .catch((err: unknown) => p.log.error({ err }, 'google calendar: busy change not published'));
    };
    const common = { db: p.db, jobs: p.jobs, api, tokens, log: p.log };
    const sessionSync = new SessionSync({ ...common, sessions: d.calendarSessions, patients: d.patients, publicUrl: p.config.publicUrl });
    const busy = new BusySync({ ...common, clock, changed });
    const channels = new Channels({
      ...common,
      busy,
      sessions: sessionSync,
      hash: p.tokens.hashSecret,
      publicUrl: p.config.publicUrl,
      pollMinutes: g?.pollMinutes ?? 10,
      clock,
    });
    const service = new GoogleCalendarService({
      ...common,
      oauth,
      sessionSync,
      busy,
      channels,
      calendarSessions: d.calendarSessions,
      sessions: d.sessions,
      hash: p.tokens.hashSecret,
      clock,
      changed,
    });
    const externalBusy: ExternalBusy = {
      busyOf: (db, ws, userId, from, to) => service.busyOf(db, ws, userId, from, to),
      onChange: (fn) => void listeners.push(fn),
    };
    return {
      provides: {
        externalBusy,
        googleCalendar: { service, sessions: sessionSync, busy, channels },
        googleMeetLink: async (tx, sessionId) =>
          (await googleCalendarRepository(tx).eventsOfSession(sessionId)).find((m) => m.meetLink)?.meetLink ?? null,
      },
      routes: (app) => app.register(googleCalendarRoutes, { service, channels }),
      // Without Google keys nothing is connected: no job has work, and no poll is scheduled.
      jobs: g
        ? [sessionSync.queue, busy.queue, channels.watchQueue, channels.pollQueue]
        : [sessionSync.queue, busy.queue, channels.watchQueue],
      sweeps: {
        'google-calendar.oauth-states': () => googleCalendarRepository(p.db).purgeStates(clock()),
        'google-calendar.past-busy': () => googleCalendarRepository(p.db).purgePastBlocks(new Date(clock().getTime() - 86_400_000)),
      },
      // A session of a connected therapist changed: its event follows (a job reads the session as it is then).
      on: [
        ...SESSION_CHANGES.map((name) =>
          handle(name, 'once', ({ workspaceId, therapistId, sessionId }) => sessionSync.changed(workspaceId, therapistId, sessionId)),
        ),
        // A patient erased takes their sessions without session events: their Google events go too.
        handle('patient.erased', 'once', ({ workspaceId }) => service.reconcileWorkspace(workspaceId)),
        // A member removed: their connection in this workspace ends (revoked at Google).
        handle('workspace.access_changed', 'once', ({ workspaceId }) =>
          service.dropFormerMembers(workspaceId, (ws, userId) => d.workspaces.isMember(ws, userId)),
        ),
      ],
    };
  },
});
