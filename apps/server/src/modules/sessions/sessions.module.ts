import { defineModule } from '../../platform/modules/define-module';
import type { LocationsService } from './locations.service';
import type { NotificationSettingsService } from './reminders/notification-settings.service';
import type { RemindersService } from './reminders/reminders.service';
import { sessionByLink, type LinkedSession } from './session-by-link';
import type { SessionInvoicing } from './session-invoicing';
import { SERIES_EVENTS } from './series/session-series.service';
import { SESSION_EVENTS, type SessionsService } from './sessions.service';
import { wireSessions } from './sessions.wiring';

declare module '../../platform/modules/define-module' {
  interface Provided {
    sessions: SessionsService;
    /** The reminders' mails and their sweep (tests move the clock and run it). */
    reminders: RemindersService;
    /** The port invoices and payments use to mark sessions invoiced and read what to invoice. */
    sessionInvoicing: SessionInvoicing;
    locations: LocationsService;
    /** What each therapist wants to be told (booking asks before a mail). */
    notificationSettings: NotificationSettingsService;
    /** The video room's read of a session by the patient's proved link (meet). */
    sessionByLink: (sessionId: string) => Promise<LinkedSession | undefined>;
    /** A port sessions declares and the meet module provides: the patient's link to a session's video room. */
    meetLink: (session: { id: string }) => string;
  }
}

/**
 * Sessions and what hangs off them (series, locations, notes, reminders, the calendar feed, the
 * calendar's range-read cache). The reminders put the meet module's link in their mails: meet is built
 * after sessions (it reads sessions), so that link is a port read at use.
 */
export const sessionsModule = defineModule({
  name: 'sessions',
  needs: ['patients', 'users', 'workspaces', 'history'],
  later: ['meetLink'],
  build: (d, p) => {
    const { sessions, reminders, invoicing, locations, notificationSettings, register, on } = wireSessions({
      db: p.db,
      config: p.config,
      log: p.log,
      clock: p.clock,
      realtime: p.realtime,
      events: p.events,
      jobs: p.jobs,
      mailer: p.mailer,
      patients: d.patients,
      users: d.users,
      workspaces: d.workspaces,
      history: d.history,
      meetLink: (session) => d.meetLink()(session),
    });
    return {
      provides: {
        sessions,
        reminders,
        sessionInvoicing: invoicing,
        locations,
        notificationSettings,
        sessionByLink: (id: string) => sessionByLink(p.db, id),
      },
      routes: register,
      jobs: [reminders.queue],
      sweeps: { 'sessions.reminder-claims': reminders.purgeClaims },
      on,
      // Reminders that fell due while no server ran go now, not at the next minute's sweep.
      start: () => reminders.catchUp(),
      sockets: [...SESSION_EVENTS, ...SERIES_EVENTS],
    };
  },
});
