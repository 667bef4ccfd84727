/**
 * Phone numbers: stored as E.164 (`+34612345678`), typed however people type them ("612 34 56 78",
 * "612-345-678", "+34 612…", "0034 612…"), shown with Spanish grouping. Spain first, by hand: a Spanish
 * number has 9 digits and starts with 6, 7, 8 or 9; anything else must carry its international prefix.
 * No metadata library: the country code length comes from the ITU assignment below, and foreign
 * numbers are grouped in threes, which reads well enough without knowing each country's plan. The
 * contracts' phone field on these rules is in phone.contracts.ts.
 */

export const DEFAULT_PHONE_COUNTRY_CODE = '34';

/** Country codes of one and two digits (ITU-T E.164 list); every other code has three. */
const ONE_DIGIT = new Set(['1', '7']);
const TWO_DIGITS = new Set(
  '20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58 60 61 62 63 64 65 66 81 82 84 86 90 91 92 93 94 95 98'.split(
    ' ',
  ),
);

const SPANISH_NATIONAL = /^[6789]\d{8}$/;
/** What may appear in a typed number besides digits. */
const TYPED = /^\+?[\d\s().\-/]+$/;

/** The country code at the start of an international number's digits (without "+"). */
export function countryCodeOf(digits: string): string {
  if (ONE_DIGIT.has(digits.slice(0, 1))) return digits.slice(0, 1);
  if (TWO_DIGITS.has(digits.slice(0, 2))) return digits.slice(0, 2);
  return digits.slice(0, 3);
}

/**
 * The E.164 form of what someone typed, or null when it is not a phone number we can store.
 * "612 34 56 78", "612-345-678", "+34 612 345 678", "0034612345678", "34612345678" → "+34612345678";
 * "+33 6 12 34 56 78", "0033 612345678" → "+33612345678".
 */
export function normalizePhone(typed: string): string | null {
  const text = typed.trim();
  if (!TYPED.test(text)) return null;
  let digits = text.replace(/\D/g, '');
  let international = text.startsWith('+');
  if (!international && digits.startsWith('00')) {
    digits = digits.slice(2);
    international = true;
  }
  if (!international) {
    if (SPANISH_NATIONAL.test(digits)) return `+${DEFAULT_PHONE_COUNTRY_CODE}${digits}`;
    // "34 612 345 678": the Spanish prefix without its "+".
    if (digits.startsWith(DEFAULT_PHONE_COUNTRY_CODE) && SPANISH_NATIONAL.test(digits.slice(2))) return `+${digits}`;
    return null;
  }
  if (digits.startsWith(DEFAULT_PHONE_COUNTRY_CODE)) return SPANISH_NATIONAL.test(digits.slice(2)) ? `+${digits}` : null;
  // E.164: at most 15 digits; the shortest national numbers in use have 4 to 6.
  if (digits.length < 8 || digits.length > 15 || digits.startsWith('0')) return null;
  return `+${digits}`;
}

/** Groups of three, the last one of two or four rather than a lonely digit: "791 112 3456". */
function inThrees(digits: string): string {
  const groups: string[] = [];
  for (let i = 0; i < digits.length; i += 3) groups.push(digits.slice(i, i + 3));
  const last = groups.at(-1);
  if (groups.length > 1 && last && last.length === 1) {
    groups.pop();
    groups[groups.length - 1] += last;
  }
  return groups.join(' ');
}

/**
 * A stored number as people read it: Spanish numbers without their prefix, "612 34 56 78";
 * foreign ones with theirs, "+33 612 345 678". Text that is not a number we understand (rows kept
 * before numbers were normalised) is shown as it was typed.
 */
export function formatPhone(stored: string | null | undefined): string {
  if (!stored) return '';
  const e164 = normalizePhone(stored);
  if (!e164) return stored.trim();
  const digits = e164.slice(1);
  const code = countryCodeOf(digits);
  const national = digits.slice(code.length);
  if (code === DEFAULT_PHONE_COUNTRY_CODE)
    return `${national.slice(0, 3)} ${national.slice(3, 5)} ${national.slice(5, 7)} ${national.slice(7)}`;
  return `+${code} ${inThrees(national)}`;
}

/** The digits a search should match ("612 34 56" → "6123456"), or '' when the text is not a number. */
export function phoneSearchDigits(text: string): string {
  return TYPED.test(text.trim()) ? text.replace(/\D/g, '') : '';
}
