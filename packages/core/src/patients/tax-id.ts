/**
 * Spanish tax ids: DNI (8 digits + letter), NIE (X/Y/Z + 7 digits + letter) and CIF (entity letter +
 * 7 digits + control). The control character is checked, so a typo is caught at the form.
 *
 * CIF control (Orden EHA/451/2008): the control is a digit for companies (A, B, E, H), a letter for
 * public bodies, churches, foreign entities and non-resident establishments (P, Q, R, S, N, W), and
 * either for the other entity letters (C, D, F, G, J, U, V).
 */
const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const CIF_CONTROL_LETTERS = 'JABCDEFGHI';
const CIF_DIGIT_CONTROL = 'ABEH';
const CIF_LETTER_CONTROL = 'PQRSNW';

export type TaxIdKind = 'dni' | 'nie' | 'cif';

/** Removes spaces, dots and dashes and upper-cases: " b-65.410.011 " → "B65410011". */
export function normalizeTaxId(id: string): string {
  return id.replace(/[\s.-]/g, '').toUpperCase();
}

/** What a tax id is once normalised, or null when it is none of the three or its control is wrong. */
export function taxIdKind(raw: string): TaxIdKind | null {
  const id = normalizeTaxId(raw);
  if (/^\d{8}[A-Z]$/.test(id)) return LETTERS[Number(id.slice(0, 8)) % 23] === id[8] ? 'dni' : null;
  if (/^[XYZ]\d{7}[A-Z]$/.test(id)) {
    const n = Number('XYZ'.indexOf(id[0]!) + id.slice(1, 8));
    return LETTERS[n % 23] === id[8] ? 'nie' : null;
  }
  if (/^[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J]$/.test(id)) return cifControlOk(id) ? 'cif' : null;
  return null;
}

/** A valid DNI, NIE or CIF. */
export function isValidSpanishTaxId(raw: string): boolean {
  return taxIdKind(raw) !== null;
}

/** A valid CIF: the buyer is an entity (company, public body, association…), not a person. */
export function isCompanyTaxId(raw: string): boolean {
  return taxIdKind(raw) === 'cif';
}

/** `id` is normalised and shaped like a CIF. */
function cifControlOk(id: string): boolean {
  const entity = id[0]!;
  const digits = id.slice(1, 8);
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const d = Number(digits[i]);
    if (i % 2 === 0) {
      // Odd positions (1st, 3rd…) are doubled and their digits added.
      const x = d * 2;
      sum += Math.floor(x / 10) + (x % 10);
    } else sum += d;
  }
  const control = (10 - (sum % 10)) % 10;
  const last = id[8]!;
  const digitOk = last === String(control);
  const letterOk = last === CIF_CONTROL_LETTERS[control];
  if (CIF_DIGIT_CONTROL.includes(entity)) return digitOk;
  if (CIF_LETTER_CONTROL.includes(entity)) return letterOk;
  return digitOk || letterOk;
}
