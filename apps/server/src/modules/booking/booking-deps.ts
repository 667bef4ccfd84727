import type { Cipher } from '../../platform/crypto/cipher';
import type { Db } from '../../platform/db/database';
import type { EventBus } from '../../platform/events/event-bus';
import type { Mailer } from '../../platform/mail/mailer';
import type { BookingIntake } from '../patients/booking-intake';
import type { BookedSessions } from '../sessions/booked-sessions';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import type { BookingSlots } from './booking-slots.service';

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

/** What a visitor typed, kept encrypted in the hold until the code proves the email. */
export type VisitorData = {
  firstName: string;
  lastName: string | null;
  email: string;
  phone: string;
  message: string | null;
  timeZone: string;
};
