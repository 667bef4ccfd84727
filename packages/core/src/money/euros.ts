/**
 * Amounts are typed in euros the Spanish way ("60", "62,5", "1.200,00 €") and travel as integer cents.
 * Returns null for an empty field and NaN for text that is not an amount (negative, three decimals,
 * words, more than 9,999,999 €).
 */
export function eurosToCents(text: string): number | null {
  const t = text.replace(/[\s€]/g, '');
  if (!t) return null;
  // A dot followed by exactly three digits is a thousands separator ("1.200"); otherwise a decimal point.
  const normalized = /^\d{1,3}(\.\d{3})+(,\d{1,2})?$/.test(t) ? t.replace(/\./g, '').replace(',', '.') : t.replace(',', '.');
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(normalized);
  if (!match) return Number.NaN;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Cents → what an amount field shows: "60" or "62,50" (no symbol, no grouping: it is typed back). */
export function centsToEuros(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return '';
  const euros = Math.floor(cents / 100);
  const rest = cents % 100;
  return rest === 0 ? String(euros) : `${euros},${String(rest).padStart(2, '0')}`;
}

/**
 * Integer cents as an exact decimal, no symbol and no grouping (no float on the way): the accountant's
 * CSV cell with a decimal comma (-2100 → "-21,00", 5 → "0,05", 123456 → "1234,56"), or with a point
 * where a machine reads it (Stripe's messages: "40.01").
 */
export function centsToDecimalText(cents: number, decimalSeparator: ',' | '.' = ','): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}${decimalSeparator}${String(abs % 100).padStart(2, '0')}`;
}
