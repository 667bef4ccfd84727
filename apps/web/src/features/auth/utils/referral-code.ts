// The sign-up page's copy of three rules of `@divan/core`'s referral contracts (REFERRAL_FRIEND_DAYS,
// normalizeReferralCode, isReferralCode). Imported from there, they bring Zod (~26 KB gzipped) into the page
// before anyone types: that module builds its schemas on load. referral-code.test.ts checks they agree.

/** Days of trial a referred colleague gets on top of theirs (core's REFERRAL_FRIEND_DAYS). */
export const FRIEND_DAYS = 30;

/** What a person types or pastes: spaces and dashes dropped, upper-cased (core's normalizeReferralCode). */
export const normalizeCode = (raw: string) => raw.replace(/[\s-]/g, '').toUpperCase();

/** 8 characters of an alphabet without look-alikes (core's isReferralCode). */
export const isCode = (code: string) => /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/.test(code);
