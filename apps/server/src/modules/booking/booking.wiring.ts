import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/database';
import type { LocationsService } from '../sessions/locations.service';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { AvailabilityOverridesService } from './availability-overrides.service';
import { BookingServicesService } from './booking-services.service';
import { bookingRoutes, publicBookingRoutes } from './booking.routes';
import { PublicBookingService } from './public-booking.service';
import { SESSION_EVENTS } from '../sessions/sessions.service';
import type { BusyTimes } from '../sessions/busy-times';
import { SERIES_EVENTS } from '../sessions/session-series.service';
import type { EventBus } from '../../platform/events/event-bus';

/** Open booking (issue 14): the therapists' services and blocked days, and their routes. */
export function wireBooking(d: { db: Db; events: EventBus; users: UsersService; workspaces: WorkspacesService; locations: LocationsService; busy: BusyTimes; perIpPerMinute: number; clock?: () => Date }) {
  const services = new BookingServicesService({ db: d.db, users: d.users, locations: d.locations });
  const overrides = new AvailabilityOverridesService({ db: d.db, workspaces: d.workspaces, clock: d.clock });
  const booking = new PublicBookingService({ db: d.db, busy: d.busy, clock: d.clock });
  // The cached months of free slots go when a therapist's time changes: sessions (any process), services, blocked days.
  for (const name of [...SESSION_EVENTS, ...SERIES_EVENTS]) d.events.on(name, ({ workspaceId }) => booking.cache.changed(workspaceId), { scope: 'every-process' });
  services.onChange((workspaceId) => booking.cache.changed(workspaceId));
  overrides.onChange((workspaceId) => booking.cache.changed(workspaceId));
  const register = async (app: FastifyInstance) => {
    await app.register(bookingRoutes, { services, overrides });
    await app.register(publicBookingRoutes, { booking, perIpPerMinute: d.perIpPerMinute });
  };
  return { services, overrides, booking, register };
}
