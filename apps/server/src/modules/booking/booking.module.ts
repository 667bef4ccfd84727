import type { WebPage } from '../../platform/http/web-app';
import { defineModule, handle } from '../../platform/modules/define-module';
import { BookingIntake } from '../patients/booking-intake';
import { BookedSessions } from '../sessions/booked-sessions';
import { SERIES_EVENTS } from '../sessions/series/session-series.service';
import { SESSION_EVENTS } from '../sessions/sessions.service';
import { AvailabilityOverridesService } from './availability-overrides.service';
import { BookHoldService } from './book-hold.service';
import { BookingConfirmService } from './booking-confirm.service';
import { BookingEmbedService } from './booking-embed.service';
import { bookingFlowRoutes } from './booking-flow.routes';
import { BookingHoldsService } from './booking-holds.service';
import { BookingManageService } from './booking-manage.service';
import { BookingNotices } from './booking-notices.service';
import { BookingOffer } from './booking-offer';
import { BookingPaymentService } from './booking-payment.service';
import { BookingRefundsService } from './booking-refunds.service';
import { BookingServicesService } from './booking-services.service';
import { BookingSlots } from './booking-slots.service';
import { bookingRoutes, publicBookingRoutes } from './booking.routes';
import { PublicBookingService } from './public-booking.service';
import { PublicPagesService } from './public-pages.service';
import { bookingEmbedRoutes, publicPagesRoutes } from './public-pages.routes';

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** A booking managed by its session (the companion reads, cancels and moves sessions booked from a service). */
    bookingManage: BookingManageService;
    /** The public booking page (its own entry of the web build), framed by the workspace's allowed origins. */
    bookingPage: WebPage;
    /** The minutes the therapists' booking schedules offer (the statistics' utilisation). */
    bookingOffer: BookingOffer;
  }
}

/** Open booking (issue 14): the therapists' services and blocked days, booking on the public page, paid bookings and their refunds. */
export const bookingModule = defineModule({
  name: 'booking',
  needs: ['users', 'workspaces', 'locations', 'sessions', 'patients', 'notificationSettings', 'bookingPayments', 'externalBusy'],
  build: (d, p) => {
    const { db, config, clock } = p;
    const { users, workspaces, locations } = d;
    const perIpPerMinute = config.rateLimit.perIpPerMinute;
    const services = new BookingServicesService({ db, users, locations });
    const overrides = new AvailabilityOverridesService({ db, workspaces, clock });
    const booked = new BookedSessions(d.sessions, workspaces);
    const slots = new BookingSlots({ db, booked, external: d.externalBusy, reads: p.database.reads });
    const booking = new PublicBookingService({ db, slots, clock });
    // What booking on the public page is built from (booking-deps.ts), shared by the flow's steps.
    const flow = {
      db,
      events: p.events,
      users,
      workspaces,
      patients: d.patients,
      cipher: p.cipher,
      mailer: p.mailer,
      jobs: p.jobs,
      log: p.log,
      hash: p.tokens.hashSecret,
      publicUrl: config.publicUrl,
      mailFrom: config.mailFrom,
      therapistWants: (workspaceId: string, userId: string) => d.notificationSettings.noticesOf(workspaceId, userId),
      clock,
      booked,
      slots,
      intake: new BookingIntake(workspaces),
      changed: (workspaceId: string) => booking.cache.changed(workspaceId),
    };
    // One of each, shared by the flow's steps: the notices (mails after a commit) and the booking of a hold.
    const notices = new BookingNotices(flow);
    const book = new BookHoldService(flow, notices);
    const holds = new BookingHoldsService(flow, services);
    // The payments module's port: paid bookings and their refunds.
    const payment = new BookingPaymentService(flow, book, d.bookingPayments);
    const confirm = new BookingConfirmService(flow, services, book, payment, notices);
    const refunds = new BookingRefundsService(flow, d.bookingPayments, notices);
    const manage = new BookingManageService(flow, notices, refunds);
    // The cached months of free slots (and the statistics' utilisation) go when a therapist's time changes: sessions (any process: `on` below), services, blocked days.
    const offer = new BookingOffer(db);
    const scheduleChanged = (workspaceId: string) => {
      booking.cache.changed(workspaceId);
      offer.changed(workspaceId);
    };
    services.onChange(scheduleChanged);
    overrides.onChange(scheduleChanged);
    // Busy times read from a therapist's Google calendars (google-calendar): that process's months go; the TTL bounds the others'.
    d.externalBusy.onChange((workspaceId) => booking.cache.changed(workspaceId));
    const pages = new PublicPagesService({ db, users, workspaces, locations });
    const embed = new BookingEmbedService({ db, workspaces });
    const bookingPage: WebPage = {
      prefix: '/v1/reservations/',
      file: 'booking.html',
      frameAncestors: (path) => embed.frameAncestors(path),
      sharedFiles: ['/embed.js'],
    };
    return {
      provides: { bookingManage: manage, bookingPage, bookingOffer: offer },
      routes: async (app) => {
        await app.register(bookingRoutes, { services, overrides });
        await app.register(publicBookingRoutes, { booking, perIpPerMinute });
        await app.register(publicPagesRoutes, { pages, perIpPerMinute });
        await app.register(bookingEmbedRoutes, { embed });
        await app.register(bookingFlowRoutes, { holds, confirm, manage, perIpPerMinute });
      },
      jobs: [refunds.job],
      sweeps: { 'booking.old-holds': holds.sweep },
      on: [...SESSION_EVENTS, ...SERIES_EVENTS].map((name) =>
        handle(name, 'every-process', ({ workspaceId }) => booking.cache.changed(workspaceId)),
      ),
    };
  },
});
