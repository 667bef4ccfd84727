/**
 * Values of public-booking.contracts.ts the page needs at run time, written again here: importing any
 * value from that file would bring its Zod schemas (its top-level calls are kept with it) and double
 * the page's JavaScript. constants.test.ts keeps them equal to the contract's.
 */
export const EMBED_RESIZE_MESSAGE = 'divan:booking-height';
export const EMBED_CLOSE_MESSAGE = 'divan:booking-close';
export const BOOKING_MESSAGE_MAX = 1000;
