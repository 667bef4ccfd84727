import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/database';
import type { LocationsService } from '../sessions/locations.service';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { AvailabilityOverridesService } from './availability-overrides.service';
import { BookingServicesService } from './booking-services.service';
import { bookingRoutes, publicBookingRoutes } from './booking.routes';
import { PublicBookingService } from './public-booking.service';
import { BookingEmbedService } from './booking-embed.service';
import { PublicPagesService } from './public-pages.service';
import { bookingEmbedRoutes, publicPagesRoutes } from './public-pages.routes';
import type { WebPage } from '../../platform/http/web-app';
import { SESSION_EVENTS } from '../sessions/sessions.service';
import type { SessionsService } from '../sessions/sessions.service';
import { BookedSessions } from '../sessions/booked-sessions';
import { BookingIntake } from '../patients/booking-intake';
import type { PatientsService } from '../patients/patients.service';
import type { Cipher } from '../../platform/crypto/cipher';
import type { Mailer } from '../../platform/mail/mailer';
import type { Jobs } from '../../platform/jobs/jobs';
import { BookingSlots } from './booking-slots.service';
import { BookingHoldsService } from './booking-holds.service';
import { BookingConfirmService } from './booking-confirm.service';
import { BookingManageService } from './booking-manage.service';
import { BookingRefundsService } from './booking-refunds.service';
import { bookingFlowRoutes } from './booking-flow.routes';
import { BookingPaymentService } from './booking-payment.service';
import { BookHoldService } from './book-hold.service';
import { BookingNotices } from './booking-notices.service';
import type { BookingFlowDeps } from './booking-deps';
import type { BookingPayments } from '../payments/booking-payments.service';
import { SERIES_EVENTS } from '../sessions/series/session-series.service';
import type { EventBus } from '../../platform/events/event-bus';
import { handle } from '../../platform/modules/define-module';

/** What booking on the public page needs besides the services' setup (booking-deps.ts). */
type FlowDeps = Pick<BookingFlowDeps, 'therapistWants'> & {
  sessions: SessionsService;
  patients: PatientsService;
  cipher: Cipher;
  mailer: Mailer;
  jobs: Jobs;
  log: FastifyBaseLogger;
  hash: (value: string) => string;
  publicUrl: string;
  mailFrom: string;
};

/** Open booking (issue 14): the therapists' services and blocked days, booking on the public page, and their routes. */
export function wireBooking(
  d: FlowDeps & {
    db: Db;
    events: EventBus;
    users: UsersService;
    workspaces: WorkspacesService;
    locations: LocationsService;
    perIpPerMinute: number;
    clock?: () => Date;
    /** The payments module's port: paid bookings and their refunds. */
    payments?: BookingPayments;
  },
) {
  const services = new BookingServicesService({ db: d.db, users: d.users, locations: d.locations });
  const overrides = new AvailabilityOverridesService({ db: d.db, workspaces: d.workspaces, clock: d.clock });
  const booked = new BookedSessions(d.sessions, d.workspaces);
  const slots = new BookingSlots({ db: d.db, booked });
  const booking = new PublicBookingService({ db: d.db, slots, clock: d.clock });
  const flow = {
    ...d,
    booked,
    slots,
    intake: new BookingIntake(d.workspaces),
    changed: (workspaceId: string) => booking.cache.changed(workspaceId),
  };
  // One of each, shared by the flow's steps: the notices (mails after a commit) and the booking of a hold.
  const notices = new BookingNotices(flow);
  const book = new BookHoldService(flow, notices);
  const holds = new BookingHoldsService(flow, services);
  const payment = new BookingPaymentService(flow, book, d.payments);
  const confirm = new BookingConfirmService(flow, services, book, payment, notices);
  const refunds = new BookingRefundsService(flow, d.payments, notices);
  const manage = new BookingManageService(flow, notices, refunds);
  const sweeps = { 'booking.old-holds': holds.sweep };
  // The cached months of free slots go when a therapist's time changes: sessions (any process), services, blocked days.
  const on = [...SESSION_EVENTS, ...SERIES_EVENTS].map((name) =>
    handle(name, 'every-process', ({ workspaceId }) => booking.cache.changed(workspaceId)),
  );
  services.onChange((workspaceId) => booking.cache.changed(workspaceId));
  overrides.onChange((workspaceId) => booking.cache.changed(workspaceId));
  const pages = new PublicPagesService({ db: d.db, users: d.users, workspaces: d.workspaces, locations: d.locations });
  const embed = new BookingEmbedService({ db: d.db, workspaces: d.workspaces });
  /** The public booking page (its own entry of the web build), framed by the workspace's allowed origins. */
  const webPage: WebPage = {
    prefix: '/v1/reservations/',
    file: 'booking.html',
    frameAncestors: (path) => embed.frameAncestors(path),
    sharedFiles: ['/embed.js'],
  };
  const register = async (app: FastifyInstance) => {
    await app.register(bookingRoutes, { services, overrides });
    await app.register(publicBookingRoutes, { booking, perIpPerMinute: d.perIpPerMinute });
    await app.register(publicPagesRoutes, { pages, perIpPerMinute: d.perIpPerMinute });
    await app.register(bookingEmbedRoutes, { embed });
    await app.register(bookingFlowRoutes, { holds, confirm, manage, perIpPerMinute: d.perIpPerMinute });
  };
  /** The patient's own account (the companion) reads, cancels and moves sessions booked from a service through `manage`'s session-keyed methods. */
  return { services, overrides, booking, embed, webPage, register, manage, jobs: [refunds.job], sweeps, on };
}
