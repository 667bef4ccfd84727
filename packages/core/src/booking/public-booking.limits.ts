/**
 * The public booking's numbers and names, in plain code: the page's own form checks and its embed
 * messages read them without loading the contracts' Zod, and public-booking.contracts.ts builds its
 * schemas on them, so the two never drift.
 */
import { EMAIL_MAX } from '../email';

/** Minutes a slot is held for the visitor once asked for (code step; extended while paying). */
export const BOOKING_HOLD_MINUTES = 10;
export const BOOKING_HOLD_PAYMENT_MINUTES = 30;
export const BOOKING_CODE_ATTEMPTS_MAX = 5;

/** The longest value of each field of the booking form (createBookingHoldBody). */
export const BOOKING_FORM_MAX = {
  firstName: 100,
  lastName: 150,
  email: EMAIL_MAX,
  phone: 30,
} as const;
export const BOOKING_MESSAGE_MAX = 1000;

/** Origins allowed to frame the booking pages: 'https://host[:port]', no path. */
export const EMBED_ORIGINS_MAX = 10;
/** The message the booking page posts to the page that frames it, so the iframe fits its content. */
export const EMBED_RESIZE_MESSAGE = 'divan:booking-height';
/** The message the booking page posts when Escape is pressed inside it, so the embed's dialog closes. */
export const EMBED_CLOSE_MESSAGE = 'divan:booking-close';
