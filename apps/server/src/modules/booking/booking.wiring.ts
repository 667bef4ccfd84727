import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/database';
import type { LocationsService } from '../sessions/locations.service';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { AvailabilityOverridesService } from './availability-overrides.service';
import { BookingServicesService } from './booking-services.service';
import { bookingRoutes } from './booking.routes';

/** Open booking (issue 14): the therapists' services and blocked days, and their routes. */
export function wireBooking(d: { db: Db; users: UsersService; workspaces: WorkspacesService; locations: LocationsService; clock?: () => Date }) {
  const services = new BookingServicesService({ db: d.db, users: d.users, locations: d.locations });
  const overrides = new AvailabilityOverridesService({ db: d.db, workspaces: d.workspaces, clock: d.clock });
  const register = (app: FastifyInstance) => app.register(bookingRoutes, { services, overrides });
  return { services, overrides, register };
}
