import type { Cipher } from '../../platform/crypto/cipher';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { EventBus } from '../../platform/events/event-bus';
import type { Mailer } from '../../platform/mail/mailer';
import type { BookingIntake } from '../patients/booking-intake';
import type { BookedSessions } from '../sessions/booked-sessions';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import type { BookingSlots } from './booking-slots';
import { bookingRepository } from './booking.repository';
import type { BookingServiceRow } from './booking.tables';

/** What the booking flow (holds, confirmation, the manage link) is built from. */
export type BookingFlowDeps = {
  db: Db;
  events: EventBus;
  cipher: Cipher;
  mailer: Mailer;
  users: UsersService;
  workspaces: WorkspacesService;
  booked: BookedSessions;
  intake: BookingIntake;
  slots: BookingSlots;
  /** The free-slots cache's "this workspace's time changed". */
  changed: (workspaceId: string) => void;
  /** HMAC of a secret (codes, links, addresses): stored instead of the secret. */
  hash: (value: string) => string;
  publicUrl: string;
  mailFrom: string;
  /** The therapist's settings «Avisos para ti»: a mail when a patient books or moves (`booked`), when one cancels (`canceled`). */
  therapistWants: (workspaceId: string, userId: string) => Promise<{ booked: boolean; canceled: boolean }>;
  clock?: () => Date;
};

export const nowOf = (d: { clock?: () => Date }) => d.clock?.() ?? new Date();

/** An active service at this path (workspace, therapist), or `public_service_not_found`: nothing is learnt of others. */
export async function activeService(
  d: { db: Db },
  ids: { workspaceId: string; therapistId?: string; serviceId: string },
): Promise<BookingServiceRow> {
  const service = await bookingRepository(d.db).service(ids.workspaceId, ids.serviceId);
  if (!service || (ids.therapistId && service.therapistId !== ids.therapistId) || service.status !== 'active')
    throw new AppError('public_service_not_found');
  return service;
}

/** What a visitor typed, kept encrypted in the hold until the code proves the email. */
export type VisitorData = {
  firstName: string;
  lastName: string | null;
  email: string;
  phone: string;
  message: string | null;
  timeZone: string;
};
export const holdAad = (holdId: string) => `booking_holds:${holdId}:data`;
