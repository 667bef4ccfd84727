// The referral code's rules in plain code (no Zod): the sign-up page reads them through `@divan/core/rules`.

/** Days of trial a referred friend gets on top of theirs. */
export const REFERRAL_FRIEND_DAYS = 30;
/** A code: 8 characters of an alphabet without look-alikes (no 0/O, 1/I/L). */
export const REFERRAL_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const REFERRAL_CODE_LENGTH = 8;
const CODE_RE = new RegExp(`^[${REFERRAL_CODE_ALPHABET}]{${REFERRAL_CODE_LENGTH}}$`);

/** What a person types or pastes: spaces and dashes dropped, upper-cased; then its shape is checked. */
export const normalizeReferralCode = (raw: string) => raw.replace(/[\s-]/g, '').toUpperCase();
export const isReferralCode = (code: string) => CODE_RE.test(code);
