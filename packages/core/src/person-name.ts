/**
 * Spec §5 "letters only", for a person's name wherever a person types one (booking, signing, the
 * patient's file, import, profile, sign-up): letters of any alphabet with their accents, spaces,
 * apostrophes (O'Connor, D’Angelo) and hyphens (Ana-María). Catalan's «l·l» (Gal·la, Col·lell) is
 * a letter of its alphabet written with a middle dot, so the dot is allowed too. No digits, no
 * markup, no other symbol. Plain code, no Zod: the public pages run it without the contracts.
 *
 * Not for a billing «nombre o razón social»: a company's name («Psicología 360 S.L.P.») has digits
 * and dots, so billing names keep the general text rule.
 */
import { msg } from './messages';

const ALLOWED = /^[\p{L}\p{M}' ’·-]+$/u;
const A_LETTER = /\p{L}/u;

/** True when `name` (already trimmed, not empty) is made of letters, spaces, apostrophes and hyphens only, with one letter at least. */
export const isPersonName = (name: string): boolean => ALLOWED.test(name) && A_LETTER.test(name);

/** The spec's message for a name that is not letters only. */
export const personNameMessage = (): string => msg.lettersOnly();
