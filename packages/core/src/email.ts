/**
 * An e-mail address's shape, wherever one is typed (the patient's file, the public booking form): the
 * same pattern as Zod's `z.email()` (zod 4's `z.regexes.email`, held equal by email.test.ts), in plain
 * code so the public pages check it without the contracts. The contracts use it too.
 */

/** Zod 4's default e-mail pattern: no leading, trailing or doubled dot in the local part; a dotted domain ending in 2+ letters. */
// Written as Zod writes it, escapes included, so email.test.ts can compare the two sources.
// eslint-disable-next-line no-useless-escape
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/** The longest address a contract takes (RFC 5321's path limit). */
export const EMAIL_MAX = 254;

/** True when `email` (already trimmed) has an e-mail address's shape. */
export const isEmailAddress = (email: string): boolean => EMAIL_PATTERN.test(email);
