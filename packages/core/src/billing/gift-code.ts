// The gift code's rules and constants in plain code (no Zod): the public `/gift/{code}` page reads them
// through `@divan/core/rules`.
import { PLAN_PRICES } from '../workspaces/plans';

/** How many months of Premium a gift can hold. */
export const GIFT_MONTHS = [1, 3, 6, 12] as const;
export type GiftMonths = (typeof GIFT_MONTHS)[number];
/** A gift not redeemed within this many months of its purchase expires. */
export const GIFT_VALID_MONTHS = 12;
export const GIFT_MESSAGE_MAX = 300;

/** What a gift of `months` costs before VAT: one person's Premium, month by month. */
export const giftPriceOf = (months: number) => (PLAN_PRICES.advance?.monthly ?? 0) * months;

/**
 * A code as printed (`ABCD-EFGH-…`) or typed in any case: the 26 characters of its 128 bits in base32.
 * Base32 has no 0, 1 or 8, so a code copied by hand with those means O, I and B (as Crockford reads them).
 */
export const normalizeGiftCode = (raw: string) =>
  raw.replace(/[\s-]/g, '').toUpperCase().replace(/0/g, 'O').replace(/1/g, 'I').replace(/8/g, 'B');
export const isGiftCode = (code: string) => /^[A-Z2-7]{26}$/.test(code);
/** `ABCDEFGHIJKLMNOPQRSTUVWXYZ` → `ABCDE-FGHIJ-…`: easier to read aloud. */
export const formatGiftCode = (code: string) => code.match(/.{1,5}/g)?.join('-') ?? code;
/** «1 mes», «3 meses». */
export const monthsLabel = (months: number) => (months === 1 ? '1 mes' : `${months} meses`);
