import type { Caller } from '../../platform/auth/caller';
import type { Tx } from '../../platform/db/database';
import { calendarSessions, type CalendarSessions } from './calendar-sync.queries';
import { defineModule, handle } from '../../platform/modules/define-module';
import { calendarFeedRoutes } from './feed/feed.routes';
import { CalendarFeedService } from './feed/feed.service';
import { LocationsService } from './locations.service';
import { PatientSessionsService } from './patient-sessions.service';
import { NotificationSettingsService } from './reminders/notification-settings.service';
import { notificationSettingsRoutes } from './reminders/reminders.routes';
import { RemindersService } from './reminders/reminders.service';
import { sessionByLink, type LinkedSession } from './session-by-link';
import { SessionInvoicing } from './session-invoicing';
import { sessionLinksRoutes } from './session-links.routes';
import { dropStaleSessionLists, invalidateAfter, SessionListReader, sessionListCache } from './session-list.cache';
import { SessionMonthStats } from './session-month-stats';
import { SessionNotesService } from './session-notes.service';
import { SessionStats } from './session-stats';
import { SERIES_EVENTS, SessionSeriesService } from './series/session-series.service';
import { sessionsRoutes } from './sessions.routes';
import { upcomingSessions, type UpcomingSession } from './upcoming-sessions.queries';
import { SESSION_EVENTS, SessionsService } from './sessions.service';

declare module '../../platform/modules/define-module' {
  interface Provided {
    sessions: SessionsService;
    /** The reminders' mails and their sweep (tests move the clock and run it). */
    reminders: RemindersService;
    /** The port invoices and payments use to mark sessions invoiced and read what to invoice. */
    sessionInvoicing: SessionInvoicing;
    /** The statistics' sums and counts of sessions (analytics). */
    sessionStats: SessionStats;
    /** The statistics' summary of months and its refresh (tests and the bench run it at once). */
    sessionMonthStats: SessionMonthStats;
    locations: LocationsService;
    /** What each therapist wants to be told (booking asks before a mail). */
    notificationSettings: NotificationSettingsService;
    /** The video room's read of a session by the patient's proved link (meet). */
    sessionByLink: (sessionId: string) => Promise<LinkedSession | undefined>;
    /** A port sessions declares and the meet module provides: the patient's link to a session's video room. */
    meetLink: (session: { id: string }) => string;
    /** A port sessions declares and google-calendar provides: the Google Meet link of a session's event, if synced. */
    googleMeetLink: (tx: Tx, sessionId: string) => Promise<string | null>;
    /** What an outside calendar's sync reads of a session (google-calendar): time, state, place, never clinical text. */
    calendarSessions: CalendarSessions;
    /** A patient's pending sessions starting in (from, to] (measures' schedules, issue 32). */
    upcomingSessions: (workspaceId: string, patientId: string, from: Date, to: Date) => Promise<UpcomingSession[]>;
  }
}

/** The sessions' own changes, after which the statistics' summary of their months is refreshed. */
const SESSION_STATS_EVENTS = ['session.created', 'session.updated', 'session.canceled', 'session.completed', 'session.deleted'] as const;

/** The broker topic of "a workspace's sessions, or what they show, changed" (the calendar's range reads). */
const SESSIONS_CHANGED = 'sessions-changed';

/**
 * Sessions and what hangs off them (series, locations, notes, reminders, the calendar feed, the
 * calendar's range-read cache). The reminders put the meet module's link in their mails: meet is built
 * after sessions (it reads sessions), so that link is a port read at use.
 */
export const sessionsModule = defineModule({
  name: 'sessions',
  needs: ['patients', 'users', 'workspaces', 'history'],
  later: ['meetLink', 'googleMeetLink'],
  build: (d, p) => {
    const { db, config, events } = p;
    const { patients, users, workspaces, history } = d;
    const sessions = new SessionsService(db, patients, users, workspaces, events, p.database.reads);
    const reminders = new RemindersService(db, p.jobs, p.mailer, patients, users, workspaces, {
      publicUrl: config.publicUrl,
      // The clock of the reminders' sweep (tests move it).
      now: p.clock,
      log: p.log,
      meetLink: (session) => d.meetLink()(session),
      googleMeetLink: (tx, sessionId) => d.googleMeetLink()(tx, sessionId),
    });
    const notificationSettings = new NotificationSettingsService(db, workspaces);
    const calendarFeeds = new CalendarFeedService(db, patients, workspaces, config.publicUrl);
    const locations = new LocationsService(db, workspaces);
    const series = new SessionSeriesService(
      db,
      sessions,
      patients,
      workspaces,
      events,
      async (ws, ids) => new Set((await history.notesOfSessions(ws, ids, '')).keys()),
    );
    sessions.readNotesWith((ws, ids, viewer) => history.notesOfSessions(ws, ids, viewer));
    const patientSessions = new PatientSessionsService(db, patients, sessions);
    const notes = new SessionNotesService(sessions, history);
    // The calendar's range reads, kept until what they show changes (docs/decisions/0015-calendar-reads.md).
    const lists = sessionListCache(config.sessionListCache ?? 200);
    lists.cache.shareThrough(p.realtime, SESSIONS_CHANGED);
    // No domain event follows these: a session's note (linked, edited, its privacy, deleted) and a location's name.
    invalidateAfter(lists, history, ['create'], (c: Caller, _p: string, _i: unknown, link?: { sessionId: string }) =>
      link ? c.member.workspaceId : undefined,
    );
    invalidateAfter(lists, history, ['update', 'delete'], (c: Caller) => c.member.workspaceId);
    invalidateAfter(lists, locations, ['update', 'delete'], (workspaceId: string) => workspaceId);
    const listReader = new SessionListReader(sessions, lists);
    // Invoicing sets the `invoiced` flag in its own transactions, then tells the calendar's reads.
    // The statistics' summary of months, refreshed a little after the sessions change (exact meanwhile).
    const monthStats = new SessionMonthStats(db, p.jobs);
    const invoicing = new SessionInvoicing(db, (workspaceId) => {
      lists.cache.changed(workspaceId);
      monthStats
        .changed(workspaceId)
        .catch((err: unknown) => p.log.warn({ err, workspaceId }, 'session month stats: refresh not enqueued'));
    });
    sessions.whenCompleted((tx, s) => invoicing.completedIn(tx, s));
    return {
      provides: {
        sessions,
        reminders,
        sessionInvoicing: invoicing,
        sessionStats: new SessionStats(p.database.reads),
        sessionMonthStats: monthStats,
        locations,
        notificationSettings,
        sessionByLink: (id: string) => sessionByLink(p.db, id),
        calendarSessions: calendarSessions(p.db),
        upcomingSessions: upcomingSessions(p.db),
      },
      routes: async (app) => {
        const perIpPerMinute = config.rateLimit.perIpPerMinute;
        await app.register(sessionsRoutes, { sessions, locations, series, listReader });
        await app.register(notificationSettingsRoutes, { settings: notificationSettings });
        await app.register(calendarFeedRoutes, { feeds: calendarFeeds, perIpPerMinute });
        await app.register(sessionLinksRoutes, { patientSessions, notes });
      },
      jobs: [reminders.queue, monthStats.queue],
      sweeps: { 'sessions.reminder-claims': reminders.purgeClaims },
      // The range reads' handlers: stale pages dropped here and, through the cache's note, in every process.
      on: [
        ...dropStaleSessionLists(lists),
        ...SESSION_STATS_EVENTS.map((name) => handle(name, 'once', ({ workspaceId }) => monthStats.changed(workspaceId))),
      ],
      // Reminders that fell due while no server ran go now, not at the next minute's sweep.
      // …and months left stale while no server ran (a restore, migration 0051's backfill) are summed soon too.
      start: async () => {
        await reminders.catchUp();
        await monthStats.catchUp();
      },
      sockets: [...SESSION_EVENTS, ...SERIES_EVENTS],
    };
  },
});
