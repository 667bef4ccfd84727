/**
 * The public booking page's reads (spec §2 `/v1/reservations/{workspaceId}/:therapistId/:serviceId`):
 * a month of a service's free slots, by the therapist's local day. No account: the ids in the path are
 * the whole address, and a paused or unknown service is `public_service_not_found`.
 */
import { z } from 'zod';
import { msg } from '../messages';
import { isPersonName, personNameMessage } from '../person-name';
import { timeZoneSchema } from '../time/time.contracts';
import { linkId, linkToken } from '../fields';
import { isEmailAddress } from '../email';
import { BOOKING_FORM_MAX, BOOKING_MESSAGE_MAX, EMBED_ORIGINS_MAX } from './public-booking.limits';

/** The booking page's link: ids that lead nowhere are a service not found (404), like any unknown link. */
export const publicServiceParams = z.object({
  workspaceId: linkId(),
  therapistId: linkId(),
  serviceId: linkId(),
});

export const publicSlotsQuery = z.object({
  /** 'YYYY-MM', the month of the calendar shown. */
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: msg.invalid('Mes') }),
  /** The visitor's zone, to show each slot in it beside the therapist's; default the therapist's. */
  timeZone: timeZoneSchema.optional(),
});
export type PublicSlotsQuery = z.infer<typeof publicSlotsQuery>;

const localTime = z.object({ day: z.string(), from: z.string(), to: z.string(), offset: z.string() });
export const publicSlotsResponse = z.object({
  month: z.string(),
  timeZone: z.string(),
  durationMinutes: z.number().int(),
  days: z.array(
    z.object({
      day: z.string(),
      slots: z.array(
        z.object({ startsAt: z.string(), endsAt: z.string(), therapist: localTime, visitor: localTime, sameLocalTime: z.boolean() }),
      ),
    }),
  ),
});
export type PublicSlots = z.infer<typeof publicSlotsResponse>;

// ---------------------------------------------------------------------------------------------------
// The public pages' reads: the workspace's index, a therapist, a service (spec §2 `/v1/reservations/…`).
// Only what a visitor may see: no email, no phone, no patient; paused services are left out.

const publicLocation = z.object({ name: z.string(), address: z.string().nullable() });
const timespanOut = z.object({ amount: z.number().int(), unit: z.enum(['months', 'days', 'hours', 'minutes']) });

/** A service as a visitor reads it. */
export const publicServiceSummary = z.object({
  id: z.uuid(),
  title: z.string(),
  description: z.string().nullable(),
  durationMinutes: z.number().int(),
  priceCents: z.number().int(),
  modality: z.enum(['presential', 'online']),
  location: publicLocation.nullable(),
  /** 'none' | 'pay' (the session is paid at booking) | 'card' (a card is saved at booking). */
  payment: z.enum(['none', 'pay', 'card']),
  /** False: only the therapist's patients may book (a visitor learns it before typing anything). */
  allowNewPatients: z.boolean(),
});
export type PublicServiceSummary = z.infer<typeof publicServiceSummary>;

export const publicTherapist = z.object({
  id: z.uuid(),
  name: z.string(),
  pictureUrl: z.string().nullable(),
  biography: z.string().nullable(),
  services: z.array(publicServiceSummary),
});
export type PublicTherapist = z.infer<typeof publicTherapist>;

const publicWorkspace = z.object({ id: z.uuid(), name: z.string(), logoUrl: z.string().nullable() });

/** `GET /api/v1/public/reservations/:workspaceId`: therapists with at least one active service. */
export const publicWorkspaceIndexResponse = z.object({ workspace: publicWorkspace, therapists: z.array(publicTherapist) });
export type PublicWorkspaceIndex = z.infer<typeof publicWorkspaceIndexResponse>;

/** `GET /api/v1/public/reservations/:workspaceId/:therapistId`. */
export const publicTherapistResponse = z.object({ workspace: publicWorkspace, therapist: publicTherapist });
export type PublicTherapistPage = z.infer<typeof publicTherapistResponse>;

/** `GET /api/v1/public/reservations/:workspaceId/:therapistId/:serviceId`: what the service page shows before the month. */
export const publicServiceResponse = z.object({
  workspace: publicWorkspace,
  therapist: publicTherapist.omit({ services: true }),
  service: publicServiceSummary.extend({ timeZone: z.string(), minNotice: timespanOut, maxNotice: timespanOut }),
});
export type PublicServicePage = z.infer<typeof publicServiceResponse>;

export const publicWorkspaceParams = publicServiceParams.pick({ workspaceId: true });
export const publicTherapistParams = publicServiceParams.pick({ workspaceId: true, therapistId: true });

// ---------------------------------------------------------------------------------------------------
// Booking, in two steps so that nobody learns whether an email belongs to a patient and no robot fills
// an agenda with strangers' addresses: the visitor asks for a slot (it is held for a few minutes and a
// six-digit code is mailed), then confirms with the code; only then does the answer depend on the email
// (not accepting new patients, patient session limit reached).

// The hold's minutes, the form's limits and the embed's messages: public-booking.limits.ts.

/**
 * `POST /api/v1/public/reservations/:ws/:therapist/:service/holds`. Name, email and phone are checked
 * by the server as a whole (`public_service_patient_data_missing`) when any is missing; each one's shape
 * here. `website` is the honeypot: a person never sees it, a robot fills it.
 */
/** A visitor's name: letters only (person-name.ts); empty is left to `public_service_patient_data_missing`. */
const visitorName = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: msg.maxLength(max) })
    .refine((v) => v === '' || isPersonName(v), { error: personNameMessage() })
    .optional();

export const createBookingHoldBody = z.object({
  startsAt: z.iso.datetime({ offset: true, error: msg.invalidInstant() }),
  firstName: visitorName(BOOKING_FORM_MAX.firstName),
  lastName: visitorName(BOOKING_FORM_MAX.lastName),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(BOOKING_FORM_MAX.email, { error: msg.maxLength(BOOKING_FORM_MAX.email) })
    .refine((v) => v === '' || isEmailAddress(v), { error: msg.invalidEmail() })
    .optional(),
  phone: z
    .string()
    .trim()
    .max(BOOKING_FORM_MAX.phone, { error: msg.maxLength(BOOKING_FORM_MAX.phone) })
    .optional(),
  message: z
    .string()
    .trim()
    .max(BOOKING_MESSAGE_MAX, { error: msg.maxLength(BOOKING_MESSAGE_MAX) })
    .optional(),
  privacyAccepted: z.literal(true, { error: 'Debes aceptar el tratamiento de tus datos para reservar' }),
  /** The visitor's zone, to write the mail's times in it. */
  timeZone: timeZoneSchema.optional(),
  website: z.string().max(500).optional(),
});
export type CreateBookingHoldBody = z.input<typeof createBookingHoldBody>;

export const bookingHoldResponse = z.object({
  holdId: z.uuid(),
  expiresAt: z.string(),
  /** The address the code went to, partly hidden ('a•••@gmail.com'). */
  emailHint: z.string(),
});
export type BookingHold = z.infer<typeof bookingHoldResponse>;

export const bookingHoldParams = z.object({ holdId: linkId() });
/** `POST /api/v1/public/booking-holds/:holdId/confirm`. */
export const confirmBookingHoldBody = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, { error: 'El código tiene 6 cifras' }),
});

/**
 * Paid at booking (null: nothing paid then). Cancelling gives all of it back: `refund` is `none` while
 * the booking stands, `pending` once cancelled until the money has gone back, then `done`.
 */
export const bookingPayment = z.object({ amountCents: z.int(), refund: z.enum(['none', 'pending', 'done']) });
export type PaidAtBooking = z.infer<typeof bookingPayment>;

/** A booked session as the visitor reads it (confirmation screen, the manage page behind the mailed link). */
export const publicBooking = z.object({
  status: z.enum(['pending', 'confirmed', 'canceled', 'completed']),
  startsAt: z.string(),
  endsAt: z.string(),
  timeZone: z.string(),
  therapist: z.object({ id: z.uuid(), name: z.string() }),
  workspace: z.object({ id: z.uuid(), name: z.string() }),
  service: z.object({ id: z.uuid(), title: z.string() }),
  modality: z.enum(['presential', 'online']),
  location: publicLocation.nullable(),
  /** Until when the visitor may cancel or move it themselves (the service's minimum notice before it); null: no longer. */
  changeableUntil: z.string().nullable(),
  payment: bookingPayment.nullable(),
});
export type PublicBooking = z.infer<typeof publicBooking>;

/** The confirm step's answer: booked, or off to the payments gateway's checkout first (the slot stays held). */
export const bookingConfirmResponse = z.discriminatedUnion('status', [
  z.object({ status: z.literal('booked'), booking: publicBooking }),
  z.object({ status: z.literal('payment_required'), checkoutUrl: z.string(), expiresAt: z.string() }),
]);
export type BookingConfirmResult = z.infer<typeof bookingConfirmResponse>;

/** The mailed manage link's token: `GET /api/v1/public/bookings/:token`, `POST …/cancel`, `POST …/move`. */
export const publicBookingTokenParams = z.object({ token: linkToken() });
export const movePublicBookingBody = z.object({ startsAt: z.iso.datetime({ offset: true, error: msg.invalidInstant() }) });
export const publicBookingResponse = z.object({ booking: publicBooking });

// ---------------------------------------------------------------------------------------------------
// Embedding on the therapist's website (plan-gated: `public_service_embedding_not_allowed`).

export const embedOriginSchema = z
  .string()
  .trim()
  .max(200, { error: msg.maxLength(200) })
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === v.replace(/\/$/, '') && !u.username;
      } catch {
        return false;
      }
    },
    { error: 'Escribe solo el origen de tu web, como https://www.tuconsulta.es' },
  )
  .transform((v) => v.replace(/\/$/, ''));

/** `GET/PUT /api/v1/workspaces/:workspaceId/booking-embed`: the workspace's allowed origins. */
export const bookingEmbedBody = z.object({
  allowedOrigins: z.array(embedOriginSchema).max(EMBED_ORIGINS_MAX, { error: msg.arrayMax(EMBED_ORIGINS_MAX) }),
});
export const bookingEmbedResponse = z.object({ allowedOrigins: z.array(z.string()), embeddingAllowed: z.boolean() });
export type BookingEmbed = z.infer<typeof bookingEmbedResponse>;
