/**
 * Spanish amounts and counts, for the web app and the server's documents alike: "1.234,56 €",
 * "20.000". Money is integer cents everywhere.
 *
 * Spain's CLDR data groups thousands only from five digits ("1234,56 €" but "12.345,60 €"), so the
 * formatters ask for `useGrouping: 'always'` (Intl.NumberFormat v3: Node 20, Chrome 106, Firefox 116,
 * Safari 15.4). An engine without it reads 'always' as `true`, the locale's default, and leaves a
 * four-digit integer part ungrouped: `groupThousands` then inserts the dot itself. Pure; no Intl state
 * beyond two cached formatters.
 */

const euro = new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR', useGrouping: 'always' });
const integer = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 0, useGrouping: 'always' });

/** Whether this engine honours `useGrouping: 'always'` (checked once). */
const groupsFourDigits = integer.format(1000) === '1.000';

/**
 * Fallback for engines that ignore `useGrouping: 'always'`: a leading integer part of four digits
 * ("1234,56 €", "-1234", "1234") gets its thousands dot; anything else is returned as it is (longer
 * parts are already grouped by the locale, shorter ones need none).
 */
export function groupThousands(formatted: string): string {
  return formatted.replace(/^(\D*)(\d)(\d{3})(?![\d.])/, '$1$2.$3');
}

const grouped = (text: string) => (groupsFourDigits ? text : groupThousands(text));

/**
 * Integer cents as Spanish euros: 123456 → "1.234,56 €", -50 → "-0,50 €" (a no-break space before
 * the sign, as Intl writes it). Throws a RangeError for anything but a safe integer: a fraction of
 * a cent means the amount was computed wrongly upstream, and printing it rounded would hide that.
 */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Money is integer cents, got ${String(cents)}`);
  // The exact decimal as text (Intl v3 formats it without going through a double), so even the
  // largest amounts keep their cents; 0 is written "0.00", never "-0.00".
  const abs = Math.abs(cents);
  const decimal = `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return grouped(euro.format(decimal as Intl.StringNumericLiteral));
}

/** A count the Spanish way, thousands always grouped: 1234 → "1.234", 20000 → "20.000". */
export function formatInteger(n: number): string {
  return grouped(integer.format(n));
}

/** «1–50 de 20.000»: the rows a page of a list shows, of how many. */
export function pageRangeLabel(page: number, pageSize: number, total: number): string {
  if (total === 0) return '0 de 0';
  const from = (page - 1) * pageSize + 1;
  const to = Math.min(page * pageSize, total);
  return `${formatInteger(from)}–${formatInteger(to)} de ${formatInteger(total)}`;
}
