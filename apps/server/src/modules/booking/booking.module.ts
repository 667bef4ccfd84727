import type { WebPage } from '../../platform/http/web-app';
import { defineModule } from '../../platform/modules/define-module';
import type { BookingManageService } from './booking-manage.service';
import { wireBooking } from './booking.wiring';

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** A booking managed by its session (the companion reads, cancels and moves sessions booked from a service). */
    bookingManage: BookingManageService;
    /** The public booking page (its own entry of the web build), framed by the workspace's allowed origins. */
    bookingPage: WebPage;
  }
}

/** Open booking (issue 14): the therapists' services and blocked days, booking on the public page, paid bookings and their refunds. */
export const bookingModule = defineModule({
  name: 'booking',
  needs: ['users', 'workspaces', 'locations', 'sessions', 'patients', 'notificationSettings', 'bookingPayments'],
  build: (d, p) => {
    const { config } = p;
    const booking = wireBooking({
      db: p.db,
      events: p.events,
      users: d.users,
      workspaces: d.workspaces,
      locations: d.locations,
      sessions: d.sessions,
      patients: d.patients,
      cipher: p.cipher,
      mailer: p.mailer,
      jobs: p.jobs,
      log: p.log,
      hash: p.tokens.hashSecret,
      publicUrl: config.publicUrl,
      mailFrom: config.mailFrom,
      therapistWants: (workspaceId, userId) => d.notificationSettings.noticesOf(workspaceId, userId),
      perIpPerMinute: config.rateLimit.perIpPerMinute,
      clock: p.clock,
      payments: d.bookingPayments,
    });
    return {
      provides: { bookingManage: booking.manage, bookingPage: booking.webPage },
      routes: booking.register,
      jobs: booking.jobs,
      sweeps: booking.sweeps,
      on: booking.on,
    };
  },
});
