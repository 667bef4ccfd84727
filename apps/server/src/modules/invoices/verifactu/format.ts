/**
 * Value formats shared by the fingerprint, the QR URL and the XML of VERI*FACTU records.
 *
 * Amounts: the AEAT's hash document (v0.1.2, §3) says each value must carry "la misma información
 * contenida en el campo correspondiente del fichero XML" and that numeric fields with one or two
 * decimals are equally valid ("123.1" is treated like "123.10"). So the only rule that matters is
 * that the XML and the hash input use the same text; we always write two decimals with a dot,
 * no thousands separator and a leading minus for negatives (ImporteSgn12.2Type:
 * `(\+|-)?\d{1,12}(\.\d{0,2})?`). 100 € is "100.00", 12.5 € is "12.50", -0.5 € is "-0.50".
 */

const MAX_ABS_CENTS = 999_999_999_999_99; // 12 integer digits + 2 decimals (ImporteSgn12.2Type)

/** Integer cents → "123.45" / "-0.50" / "100.00". Throws on non-integers or out-of-range values. */
export function formatAmount(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Amount must be integer cents, got ${cents}`);
  if (Math.abs(cents) > MAX_ABS_CENTS) throw new RangeError(`Amount out of range for ImporteSgn12.2Type: ${cents}`);
  const abs = Math.abs(cents);
  const text = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return cents < 0 ? `-${text}` : text;
}

const AMOUNT_TEXT = /^([+-]?)(\d{1,12})(?:\.(\d{0,2}))?$/;

/** "123.4" / "-0.50" / "+7" → integer cents. Throws on text the XSD would reject. */
export function parseAmount(text: string): number {
  const m = AMOUNT_TEXT.exec(text.trim());
  if (!m) throw new RangeError(`Not an ImporteSgn12.2Type amount: "${text}"`);
  const [, sign, units, decimals = ''] = m;
  const cents = Number(units) * 100 + Number(decimals.padEnd(2, '0'));
  return sign === '-' ? -cents : cents;
}

/** A VAT rate in percent (21, 10, 5.2) → Tipo2.2Type text ("21.00"). */
export function formatRate(percent: number): string {
  const hundredths = Math.round(percent * 100);
  if (!Number.isFinite(percent) || percent < 0 || Math.abs(hundredths - percent * 100) > 1e-6 || hundredths > 999_99) {
    throw new RangeError(`Tax rate must be 0–999.99 with at most two decimals, got ${percent}`);
  }
  return formatAmount(hundredths);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const AEAT_DATE = /^(\d{2})-(\d{2})-(\d{4})$/;

/** A calendar-checked YYYY-MM-DD → the AEAT's DD-MM-YYYY. */
export function toAeatDate(isoDate: string): string {
  const m = ISO_DATE.exec(isoDate.trim());
  if (!m || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) {
    throw new RangeError(`Expected a YYYY-MM-DD calendar date, got "${isoDate}"`);
  }
  return `${m[3]}-${m[2]}-${m[1]}`;
}

/** The AEAT's DD-MM-YYYY → YYYY-MM-DD. */
export function fromAeatDate(aeatDate: string): string {
  const m = AEAT_DATE.exec(aeatDate.trim());
  if (!m || !isCalendarDate(Number(m[3]), Number(m[2]), Number(m[1]))) {
    throw new RangeError(`Expected a DD-MM-YYYY calendar date, got "${aeatDate}"`);
  }
  return `${m[3]}-${m[2]}-${m[1]}`;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}
