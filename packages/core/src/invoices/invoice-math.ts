/**
 * Invoice arithmetic in integer cents. Every intermediate product is a BigInt, so nothing passes
 * through a double and the results are exact integers.
 *
 * Spanish practice (and the AEAT's own examples) round VAT and withholding per line, half away from
 * zero, and then add the rounded lines: an invoice's totals are exactly the sum of its lines, and each
 * row of its VAT and withholding breakdowns exactly the sum of the lines it groups.
 *
 * Inputs that cannot be right (a fraction of a cent, a rate outside Spain's, a quantity with three
 * decimals) throw a RangeError: they are bugs upstream, and the Zod contracts stop them at the form.
 */

export const VAT_RATES = [0, 4, 10, 21] as const;
export const WITHHOLDING_RATES = [0, 7, 15, 19] as const;
export type VatRate = (typeof VAT_RATES)[number];
export type WithholdingRate = (typeof WITHHOLDING_RATES)[number];
/**
 * A line's VAT other than a rate: E1, exempt under art. 20 of the VAT law (health care by psychologists:
 * art. 20.Uno.3º); N2, not subject by the place-of-supply rules (Diván's own invoices to a business
 * elsewhere in the EU, to the Canary Islands, Ceuta and Melilla, or outside the EU). Both have rate 0.
 */
export type VatExemption = 'E1' | 'N2';
export const VAT_EXEMPTIONS = ['E1', 'N2'] as const;

export type InvoiceLineInput = {
  description: string;
  /** Taxable base per unit, in cents; negative on a rectifying line. */
  unitPriceCents: number;
  /** Up to two decimals, > 0. */
  quantity: number;
  /** Percent: 0, 4, 10 or 21. */
  vatRate: number;
  /** Percent: 0, 7, 15 or 19. */
  withholdingRate: number;
  /** 'E1' (exempt, art. 20): vatRate must then be 0. */
  exemption: VatExemption | null;
};

export type LineTotals = { baseCents: number; vatCents: number; withholdingCents: number; totalCents: number };

export type VatBreakdownRow = { vatRate: number; exemption: VatExemption | null; baseCents: number; vatCents: number };
export type WithholdingBreakdownRow = { rate: number; baseCents: number; withholdingCents: number };

export type InvoiceTotals = {
  lines: LineTotals[];
  subtotalCents: number;
  vatCents: number;
  withholdingCents: number;
  totalCents: number;
  /** One row per (VAT rate, exemption), by rate ascending, the taxed row before the exempt one. */
  vatBreakdown: VatBreakdownRow[];
  /** One row per withholding rate above 0, ascending; lines without withholding have no row. */
  withholdingBreakdown: WithholdingBreakdownRow[];
};

/** n / d rounded half away from zero (d > 0). */
function divRound(n: bigint, d: bigint): bigint {
  const q = ((n < 0n ? -n : n) * 2n + d) / (2n * d);
  return n < 0n ? -q : q;
}

function toSafeNumber(n: bigint, what: string): number {
  const v = Number(n);
  if (!Number.isSafeInteger(v)) throw new RangeError(`${what} is out of range: ${n}`);
  return v;
}

/** The quantity in hundredths (1.5 → 150); throws unless it is positive with at most two decimals. */
export function quantityHundredths(quantity: number): number {
  const scaled = quantity * 100;
  const hundredths = Math.round(scaled);
  // 0.29 * 100 is 28.999999999999996: accept what a double cannot tell apart from two decimals.
  const exact = Math.abs(scaled - hundredths) <= 1e-9 * Math.max(1, Math.abs(scaled));
  if (!Number.isFinite(quantity) || !exact || hundredths <= 0 || !Number.isSafeInteger(hundredths)) {
    throw new RangeError(`A quantity is positive with at most two decimals, got ${String(quantity)}`);
  }
  return hundredths;
}

function checkLine(line: InvoiceLineInput): void {
  if (!Number.isSafeInteger(line.unitPriceCents)) throw new RangeError(`Money is integer cents, got ${String(line.unitPriceCents)}`);
  if (!(VAT_RATES as readonly number[]).includes(line.vatRate))
    throw new RangeError(`VAT rate must be one of ${VAT_RATES.join(', ')}, got ${String(line.vatRate)}`);
  if (!(WITHHOLDING_RATES as readonly number[]).includes(line.withholdingRate)) {
    throw new RangeError(`Withholding rate must be one of ${WITHHOLDING_RATES.join(', ')}, got ${String(line.withholdingRate)}`);
  }
  if (line.exemption !== null && !VAT_EXEMPTIONS.includes(line.exemption))
    throw new RangeError(`Unknown VAT exemption ${String(line.exemption)}`);
  if (line.exemption !== null && line.vatRate !== 0)
    throw new RangeError(`A line with exemption ${line.exemption} has VAT rate 0, got ${line.vatRate}`);
}

/**
 * One line: base = unit price × quantity, VAT and withholding on the base, each rounded half away
 * from zero to the cent; total = base + VAT − withholding.
 */
export function lineTotals(line: InvoiceLineInput): LineTotals {
  checkLine(line);
  const base = divRound(BigInt(line.unitPriceCents) * BigInt(quantityHundredths(line.quantity)), 100n);
  const vat = divRound(base * BigInt(line.vatRate), 100n);
  const withholding = divRound(base * BigInt(line.withholdingRate), 100n);
  return {
    baseCents: toSafeNumber(base, 'Line base'),
    vatCents: toSafeNumber(vat, 'Line VAT'),
    withholdingCents: toSafeNumber(withholding, 'Line withholding'),
    totalCents: toSafeNumber(base + vat - withholding, 'Line total'),
  };
}

/** The invoice's totals and breakdowns, each exactly the sum of its rounded lines. */
export function invoiceTotals(lines: readonly InvoiceLineInput[]): InvoiceTotals {
  const totals = lines.map(lineTotals);
  const sum = (pick: (t: LineTotals) => number, what: string) =>
    toSafeNumber(
      totals.reduce((acc, t) => acc + BigInt(pick(t)), 0n),
      what,
    );

  const vatRows = new Map<string, { vatRate: number; exemption: VatExemption | null; base: bigint; vat: bigint }>();
  const withholdingRows = new Map<number, { rate: number; base: bigint; withholding: bigint }>();
  lines.forEach((line, i) => {
    const t = totals[i]!;
    const key = `${line.vatRate}|${line.exemption ?? ''}`;
    const row = vatRows.get(key) ?? { vatRate: line.vatRate, exemption: line.exemption, base: 0n, vat: 0n };
    row.base += BigInt(t.baseCents);
    row.vat += BigInt(t.vatCents);
    vatRows.set(key, row);
    if (line.withholdingRate > 0) {
      const w = withholdingRows.get(line.withholdingRate) ?? { rate: line.withholdingRate, base: 0n, withholding: 0n };
      w.base += BigInt(t.baseCents);
      w.withholding += BigInt(t.withholdingCents);
      withholdingRows.set(line.withholdingRate, w);
    }
  });

  return {
    lines: totals,
    subtotalCents: sum((t) => t.baseCents, 'Subtotal'),
    vatCents: sum((t) => t.vatCents, 'VAT'),
    withholdingCents: sum((t) => t.withholdingCents, 'Withholding'),
    totalCents: sum((t) => t.totalCents, 'Total'),
    vatBreakdown: [...vatRows.values()]
      .sort((a, b) => a.vatRate - b.vatRate || Number(a.exemption !== null) - Number(b.exemption !== null))
      .map((r) => ({
        vatRate: r.vatRate,
        exemption: r.exemption,
        baseCents: toSafeNumber(r.base, 'VAT base'),
        vatCents: toSafeNumber(r.vat, 'VAT'),
      })),
    withholdingBreakdown: [...withholdingRows.values()]
      .sort((a, b) => a.rate - b.rate)
      .map((r) => ({
        rate: r.rate,
        baseCents: toSafeNumber(r.base, 'Withholding base'),
        withholdingCents: toSafeNumber(r.withholding, 'Withholding'),
      })),
  };
}

/** A finite non-negative double as an exact fraction num / 2^shift (every double is one). */
function dyadic(w: number): { num: bigint; shift: number } {
  let x = w;
  let shift = 0;
  // Doubling a non-integer double is exact (it is below 2^52), and at most 1074 steps reach an integer.
  while (!Number.isInteger(x)) {
    x *= 2;
    shift++;
  }
  return { num: BigInt(x), shift };
}

/**
 * Splits `totalCents` into integer parts proportional to `weights` that add up to it exactly, by the
 * largest-remainder method: each part gets its share rounded towards zero, and the cents left over go
 * one each to the largest remainders, the earliest first on a tie. A zero weight gets 0; a negative
 * total is split like its opposite, with the signs flipped. Every part is within one cent of its exact
 * share. The arithmetic is exact, whatever the weights (cents, quantities, fractions).
 *
 * Throws a RangeError when there are no weights, when they are all zero, or when one is negative or
 * not finite, or when the total is not integer cents.
 */
export function allocateCents(totalCents: number, weights: readonly number[]): number[] {
  if (!Number.isSafeInteger(totalCents)) throw new RangeError(`Money is integer cents, got ${String(totalCents)}`);
  if (weights.length === 0) throw new RangeError('allocateCents needs at least one weight');
  for (const w of weights) if (!Number.isFinite(w) || w < 0) throw new RangeError(`Weights are finite and non-negative, got ${String(w)}`);

  const exact = weights.map(dyadic);
  const maxShift = Math.max(...exact.map((e) => e.shift));
  const nums = exact.map((e) => e.num << BigInt(maxShift - e.shift));
  const sumWeights = nums.reduce((a, b) => a + b, 0n);
  if (sumWeights === 0n) throw new RangeError('allocateCents needs a weight above zero');

  const negative = totalCents < 0;
  const total = BigInt(Math.abs(totalCents));
  const parts = nums.map((n) => (total * n) / sumWeights);
  const remainders = nums.map((n) => (total * n) % sumWeights);
  let left = total - parts.reduce((a, b) => a + b, 0n);
  // left < number of weights with a remainder, so each gets at most one cent.
  const order = remainders.map((r, i) => ({ r, i })).sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of order) {
    if (left === 0n) break;
    parts[i]! += 1n;
    left -= 1n;
  }
  return parts.map((p) => (negative ? -Number(p) : Number(p)) || 0);
}

/** Prefix of the ordinary and the rectifying series, unless the seller chooses their own. */
export const DEFAULT_INVOICE_PREFIX = '';
export const DEFAULT_RECTIFYING_PREFIX = 'R';
/**
 * A prefix as printed: up to 11 of A–Z, 0–9, '-' and '/', starting with a letter and not ending in a
 * digit, so the year that follows stays readable ("F-2026-0001", "CL/2026-0001", "RF-2026-0001").
 */
export const INVOICE_PREFIX_PATTERN = /^(?:[A-Z](?:[A-Z0-9/-]{0,9}[A-Z/-])?)?$/;
/** A series prefix chosen in the settings: 10 characters at most (its rectifying series adds the R). */
export const SERIES_PREFIX_MAX = 10;

/**
 * Why a series prefix (as chosen in the settings, already trimmed and upper-cased) is not valid, in
 * Spanish; null when it is. It may not start with R: the rectifying series is the same prefix with an
 * R before it, so an ordinary "R…" series could meet a rectifying one.
 */
export function seriesPrefixProblem(prefix: string): string | null {
  if (prefix.length > SERIES_PREFIX_MAX) return `El prefijo admite como mucho ${SERIES_PREFIX_MAX} caracteres.`;
  if (!/^[A-Z0-9/-]*$/.test(prefix)) return 'El prefijo solo admite letras sin tilde (A–Z), números, guion (-) y barra (/).';
  if (prefix && !/^[A-Z]/.test(prefix)) return 'El prefijo empieza por una letra.';
  if (prefix.startsWith('R')) return 'El prefijo no puede empezar por R: la serie rectificativa es la misma con una R delante.';
  if (/[0-9]$/.test(prefix)) return 'El prefijo no puede acabar en un número (se confundiría con el año): añade un guion, p. ej. «F1-».';
  return null;
}

/** The printed prefixes of a seller's two series: the ordinary one, and the rectifying one (R before it). */
export function seriesPrefixes(prefix: string): { ordinary: string; rectifying: string } {
  return { ordinary: prefix, rectifying: `${DEFAULT_RECTIFYING_PREFIX}${prefix}` };
}

export type InvoiceNumberParts = { prefix: string; year: number; sequence: number; digits?: number };

/** `${prefix}${year}-${sequence padded to digits}`: "2026-0001", "F2026-0001", "R2026-0012". */
export function formatInvoiceNumber({ prefix, year, sequence, digits = 4 }: InvoiceNumberParts): string {
  if (!INVOICE_PREFIX_PATTERN.test(prefix))
    throw new RangeError(
      `An invoice prefix is up to 11 of A-Z, 0-9, - and /, from a letter and not ending in a digit, got ${JSON.stringify(prefix)}`,
    );
  if (!Number.isInteger(year) || year < 1000 || year > 9999) throw new RangeError(`An invoice year has four digits, got ${String(year)}`);
  if (!Number.isSafeInteger(sequence) || sequence < 1)
    throw new RangeError(`An invoice sequence is a positive integer, got ${String(sequence)}`);
  if (!Number.isInteger(digits) || digits < 1 || digits > 16)
    throw new RangeError(`Sequence digits go from 1 to 16, got ${String(digits)}`);
  // A sequence longer than `digits` is written in full, never cut.
  return `${prefix}${year}-${String(sequence).padStart(digits, '0')}`;
}

/**
 * The inverse of formatInvoiceNumber ("F2026-0001" → { prefix: 'F', year: 2026, sequence: 1,
 * digits: 4 }), reading trimmed and upper-cased text; null when it is not an invoice number.
 * `digits` is the length of the sequence as written.
 */
export function parseInvoiceNumber(text: string): Required<InvoiceNumberParts> | null {
  const match = /^((?:[A-Z](?:[A-Z0-9/-]{0,9}[A-Z/-])?)?)(\d{4})-(\d{1,16})$/.exec(text.trim().toUpperCase());
  if (!match) return null;
  const [, prefix, year, seq] = match as unknown as [string, string, string, string];
  const sequence = Number(seq);
  if (Number(year) < 1000 || sequence < 1 || !Number.isSafeInteger(sequence)) return null;
  return { prefix, year: Number(year), sequence, digits: seq.length };
}
