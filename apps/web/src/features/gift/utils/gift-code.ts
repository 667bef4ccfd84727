/**
 * The gift code's shape, Zod-free: the public `/gift/{code}` page opens from a mail, signed out, and
 * core's gift contracts would bring Zod with them (packages/core/src/billing/gift.contracts.ts builds its
 * schemas at load). The same rules as core's `normalizeGiftCode` and `formatGiftCode` (gift-code.test.ts
 * compares them).
 */

/** `abcde-fghij …` as typed or printed → `ABCDEFGHIJ…`. */
export const normalizeGiftCode = (raw: string) => raw.replace(/[\s-]/g, '').toUpperCase();

/** `ABCDEFGHIJ…` → `ABCDE-FGHIJ-…`: easier to read aloud and to copy by hand. */
export const formatGiftCode = (code: string) => code.match(/.{1,5}/g)?.join('-') ?? code;

/** «1 mes», «3 meses». */
export const monthsLabel = (months: number) => (months === 1 ? '1 mes' : `${months} meses`);
