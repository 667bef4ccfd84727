/** "62,50" / "62.5" / "60 €" → 6250 cents; '' → null (the patient's standard price); anything else → undefined (invalid). */
export function eurosToCents(text: string): number | null | undefined {
  const t = text.replace(/€/g, '').replace(/\s/g, '');
  if (!t) return null;
  // A dot followed by three digits is a thousands separator ("1.200"); otherwise a decimal point.
  const normal = /^\d{1,3}(\.\d{3})+(,\d{1,2})?$/.test(t) ? t.replace(/\./g, '').replace(',', '.') : t.replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(normal)) return undefined;
  const [int, dec = ''] = normal.split('.') as [string, string?];
  return Number(int) * 100 + Number((dec ?? '').padEnd(2, '0'));
}

/** 6250 → "62,50", 6000 → "60". */
export function centsToEuros(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return '';
  const euros = Math.floor(cents / 100);
  const rest = cents % 100;
  return rest ? `${euros},${String(rest).padStart(2, '0')}` : String(euros);
}
