/**
 * Outcome measures as data (issue 32): each instrument's items, answer options, scales (subscales
 * included), bands, clinical cut-off and reliable-change threshold, with its copyright line and
 * language. No form builder: validated instruments are not editable.
 *
 * Arithmetic is exact: a scale's value is an integer numerator over a fixed denominator (`den`: 1 for
 * sums, the item count for means), and every comparison (band, cut-off, reliable change) is made by
 * cross-multiplying integers, never on rounded decimals. `displayValue` rounds only for the screen.
 */

export const MEASURE_KEYS = ['phq9', 'gad7', 'who5', 'dass21', 'core10', 'coreom'] as const;
export type MeasureKey = (typeof MEASURE_KEYS)[number];
export const isMeasureKey = (k: unknown): k is MeasureKey => typeof k === 'string' && (MEASURE_KEYS as readonly string[]).includes(k);

export type MeasureOption = { value: number; label: string };
export type MeasureItem = { number: number; text: string };
/** From `from` (in the scale's display units) upwards, until the next band. `level` 0 is the healthiest. */
export type MeasureBand = { from: number; label: string; level: number };

export type MeasureScale = {
  key: string;
  label: string;
  /** 1-based item numbers summed into this scale. */
  items: readonly number[];
  /** Each item's value is multiplied by this (DASS-21 ×2, WHO-5 ×4 to 0–100, CORE means ×10). */
  multiplier: number;
  /** The fixed denominator: 1 for a sum, the item count for a mean (all items are required). */
  den: number;
  min: number;
  max: number;
  /** Whether a higher score is worse (symptoms) or better (well-being). */
  higherIsWorse: boolean;
  bands: readonly MeasureBand[];
  /**
   * The clinical cut-off in display units: a score at or above it is in the clinical range
   * (higherIsWorse), or below it (a well-being scale). Absent on informational subscales.
   */
  cutoff?: number;
  /** Jacobson–Truax: the smallest change, in display units, that is reliable (|Δ| ≥ this). */
  reliableChange?: number;
  /** Where the cut-off and the reliable-change threshold come from. */
  source?: string;
};

export type Measure = {
  key: MeasureKey;
  name: string;
  shortName: string;
  language: 'es-ES';
  /** What the respondent reads first. */
  instructions: string;
  items: readonly MeasureItem[];
  options: readonly MeasureOption[];
  /** 1-based items scored in reverse (value → maxOption − value) before summing. */
  reversed: readonly number[];
  /** The first scale is the measure's main score (trend, reliable change, classification). */
  scales: readonly MeasureScale[];
  /** 1-based items whose answer above 0 raises a risk flag for the therapist (PHQ-9 item 9). */
  riskItems: readonly number[];
  /** The copyright or licence line, shown with the instrument. */
  copyright: string;
  licence: string;
  /** The Spanish version used, and whether its text still has to be checked against the licensor's verbatim file. */
  translation: { source: string; verify: boolean };
};

/** The crisis line shown to a patient whose answer raises a risk flag (Spain's 024), and nothing else automated. */
export const CRISIS_LINE = {
  number: '024',
  text: 'Si estás pensando en hacerte daño o en quitarte la vida, llama al 024: es gratuito, confidencial y atiende las 24 horas. En una emergencia, llama al 112.',
};

export const maxOption = (m: Pick<Measure, 'options'>) => Math.max(...m.options.map((o) => o.value));

type LikertInput = Omit<Measure, 'items' | 'reversed' | 'language' | 'riskItems'> & {
  items: readonly string[];
  reversed?: readonly number[];
  riskItems?: readonly number[];
};

/**
 * One builder for every Likert measure: numbered items, one set of options, scales over item numbers.
 * Checks the definition itself (every scale's items exist, its bands rise from its minimum).
 */
export function likert(input: LikertInput): Measure {
  const items = input.items.map((text, i) => ({ number: i + 1, text }));
  for (const s of input.scales) {
    if (s.items.some((n) => n < 1 || n > items.length)) throw new Error(`${input.key}.${s.key}: item out of range`);
    if (s.bands.length && s.bands[0]!.from !== s.min) throw new Error(`${input.key}.${s.key}: bands must start at the minimum`);
    if (s.bands.some((b, i) => i > 0 && b.from <= s.bands[i - 1]!.from)) throw new Error(`${input.key}.${s.key}: bands must rise`);
  }
  return { ...input, language: 'es-ES', items, reversed: input.reversed ?? [], riskItems: input.riskItems ?? [] };
}

/** A scale that is a plain sum of its items times `multiplier`. */
export const sumScale = (s: Omit<MeasureScale, 'den' | 'multiplier' | 'min'> & { multiplier?: number; min?: number }): MeasureScale => ({
  multiplier: 1,
  min: 0,
  ...s,
  den: 1,
});

/** A CORE-style clinical score: the mean of its items × 10 (den = the item count). */
export const meanTimesTen = (s: Omit<MeasureScale, 'den' | 'multiplier' | 'min' | 'max'>): MeasureScale => ({
  ...s,
  multiplier: 10,
  min: 0,
  max: 40,
  den: s.items.length,
});

/**
 * Jacobson & Truax (1991): the reliable-change threshold 1.96 · SD · √(2 · (1 − r)), from a published
 * standard deviation and reliability, in the scale's units; `ceil` because changes are whole points
 * (a change of 7 does not reach 7.43).
 */
export function jacobsonTruax(sd: number, reliability: number, step = 1): number {
  const t = 1.96 * sd * Math.sqrt(2 * (1 - reliability));
  return Math.ceil(t / step - 1e-9) * step;
}
