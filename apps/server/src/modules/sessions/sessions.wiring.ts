import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/database';
import type { EventBus } from '../../platform/events/event-bus';
import type { Jobs } from '../../platform/jobs/jobs';
import type { Mailer } from '../../platform/mail/mailer';
import type { Realtime } from '../../platform/realtime/realtime';
import type { HistoryService } from '../patients/history.service';
import type { Caller } from '../../platform/auth/caller';
import type { PatientsService } from '../patients/patients.service';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { calendarFeedRoutes } from './feed/feed.routes';
import { CalendarFeedService } from './feed/feed.service';
import { LocationsService } from './locations.service';
import { PatientSessionsService } from './patient-sessions.service';
import { NotificationSettingsService } from './reminders/notification-settings.service';
import { notificationSettingsRoutes } from './reminders/reminders.routes';
import { RemindersService, type RemindersOptions } from './reminders/reminders.service';
import { sessionLinksRoutes } from './session-links.routes';
import { dropStaleSessionLists, invalidateAfter, SessionListReader, sessionListCache } from './session-list.cache';
import { SessionInvoicing } from './session-invoicing';
import { SessionNotesService } from './session-notes.service';
import { SessionSeriesService } from './series/session-series.service';
import { sessionsRoutes } from './sessions.routes';
import { SessionsService } from './sessions.service';

/** The broker topic of "a workspace's sessions, or what they show, changed" (the calendar's range reads). */
const SESSIONS_CHANGED = 'sessions-changed';

type Deps = {
  db: Db;
  config: Config;
  log: FastifyBaseLogger;
  realtime: Realtime;
  events: EventBus;
  jobs: Jobs;
  mailer: Mailer;
  patients: PatientsService;
  users: UsersService;
  workspaces: WorkspacesService;
  history: HistoryService;
  /** The clock of the reminders' sweep (tests move it). */
  clock?: () => Date;
  /** The patient's link to the video room (the meet module's). */
  meetLink: RemindersOptions['meetLink'];
};

/**
 * Sessions and what hangs off them (series, locations, notes, reminders, the calendar feed, the
 * calendar's range-read cache), built once and their routes registered by `register`.
 */
export function wireSessions(d: Deps) {
  const { db, config, patients, workspaces, history, events } = d;
  const sessions = new SessionsService(db, patients, d.users, workspaces, events);
  const reminders = new RemindersService(db, d.jobs, d.mailer, patients, d.users, workspaces, {
    publicUrl: config.publicUrl,
    now: d.clock,
    log: d.log,
    meetLink: d.meetLink,
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
  const lists = sessionListCache(config.sessionListCache ?? 200).shareThrough(d.realtime, SESSIONS_CHANGED);
  // No domain event follows these: a session's note (linked, edited, its privacy, deleted) and a location's name.
  invalidateAfter(lists, history, ['create'], (c: Caller, _p: string, _i: unknown, link?: { sessionId: string }) =>
    link ? c.member.workspaceId : undefined,
  );
  invalidateAfter(lists, history, ['update', 'delete'], (c: Caller) => c.member.workspaceId);
  invalidateAfter(lists, locations, ['update', 'delete'], (workspaceId: string) => workspaceId);
  const listReader = new SessionListReader(sessions, lists);
  // Invoicing sets the `invoiced` flag in its own transactions, then tells the calendar's reads.
  const invoicing = new SessionInvoicing(db, (workspaceId) => lists.changed(workspaceId));
  sessions.whenCompleted((tx, s) => invoicing.completedIn(tx, s));

  const register = async (app: FastifyInstance) => {
    const perIpPerMinute = config.rateLimit.perIpPerMinute;
    await app.register(sessionsRoutes, { sessions, locations, series, listReader });
    await app.register(notificationSettingsRoutes, { settings: notificationSettings });
    await app.register(calendarFeedRoutes, { feeds: calendarFeeds, perIpPerMinute });
    await app.register(sessionLinksRoutes, { patientSessions, notes });
  };
  // What the module entry registers: the range reads' handlers, the reminders' queue and claims sweep.
  const on = dropStaleSessionLists(lists);
  return { sessions, reminders, invoicing, locations, notificationSettings, register, on };
}
