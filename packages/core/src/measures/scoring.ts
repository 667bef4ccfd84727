import { maxOption, type Measure, type MeasureBand, type MeasureScale } from './measure';

/** A scale's exact value: `num / den` in display units (den 1 for sums). */
export type ScaleScore = {
  key: string;
  num: number;
  den: number;
  /** For the screen: rounded to one decimal (exactly, from integers). */
  value: number;
  band: MeasureBand | null;
  /** In the clinical range by the cut-off; null on scales without one. */
  clinical: boolean | null;
};
export type MeasureScore = { scales: ScaleScore[]; risk: boolean; riskItems: number[] };

export type AnswerProblem = { path: string; message: string };

/**
 * Every item answered with one of the measure's options: the problems, one per item, in Spanish.
 * All items are required (a partial answer is refused, never scored).
 */
export function answerProblems(m: Measure, answers: readonly unknown[]): AnswerProblem[] {
  const allowed = new Set(m.options.map((o) => o.value));
  const problems: AnswerProblem[] = [];
  for (const item of m.items) {
    const a = answers[item.number - 1];
    if (a === undefined || a === null)
      problems.push({ path: `answers.${item.number - 1}`, message: `Responde la pregunta ${item.number}` });
    else if (typeof a !== 'number' || !allowed.has(a))
      problems.push({ path: `answers.${item.number - 1}`, message: `La respuesta a la pregunta ${item.number} no es válida` });
  }
  if (answers.length > m.items.length) problems.push({ path: 'answers', message: `El cuestionario tiene ${m.items.length} preguntas` });
  return problems;
}

/** Round-half-up of num/den to one decimal, in integers. */
export const oneDecimal = (num: number, den: number) => Math.floor((num * 20 + den) / (2 * den)) / 10;

/** The band a value falls in: the last whose `from` it reaches (num ≥ from · den, exactly). */
export const bandOf = (s: MeasureScale, num: number): MeasureBand | null => {
  let found: MeasureBand | null = null;
  for (const b of s.bands) if (num * 10 >= Math.round(b.from * 10) * s.den) found = b;
  return found;
};

/** Whether num/den is in the clinical range: ≥ cut-off on a symptom scale, < cut-off on a well-being one. */
export const isClinical = (s: MeasureScale, num: number): boolean | null => {
  if (s.cutoff === undefined) return null;
  const atOrAbove = num * 10 >= Math.round(s.cutoff * 10) * s.den;
  return s.higherIsWorse ? atOrAbove : !atOrAbove;
};

/** Scores complete answers (call `answerProblems` first: this throws on a partial answer). */
export function scoreMeasure(m: Measure, answers: readonly number[]): MeasureScore {
  if (answerProblems(m, answers).length) throw new Error(`${m.key}: incomplete or invalid answers`);
  const top = maxOption(m);
  const reversed = new Set(m.reversed);
  const valueOf = (n: number) => (reversed.has(n) ? top - answers[n - 1]! : answers[n - 1]!);
  const scales = m.scales.map((s) => {
    const num = s.items.reduce((sum, n) => sum + valueOf(n), 0) * s.multiplier;
    return { key: s.key, num, den: s.den, value: oneDecimal(num, s.den), band: bandOf(s, num), clinical: isClinical(s, num) };
  });
  const riskItems = m.riskItems.filter((n) => answers[n - 1]! > 0);
  return { scales, risk: riskItems.length > 0, riskItems };
}

export const RELIABLE_CHANGE_LABELS = {
  recovered: 'Recuperación',
  improved: 'Mejoría fiable',
  deteriorated: 'Empeoramiento fiable',
  no_change: 'Sin cambio fiable',
} as const;
export type ReliableChange = keyof typeof RELIABLE_CHANGE_LABELS;

/**
 * Jacobson–Truax between two administrations of one scale (same den): a change of at least the
 * scale's threshold is reliable; a reliable improvement that also leaves the clinical range (from
 * clinical to not) is a recovery. Exact: |Δnum| · 10 ≥ threshold · 10 · den. Null on a scale
 * without a threshold.
 */
export function reliableChange(s: MeasureScale, firstNum: number, lastNum: number): ReliableChange | null {
  if (s.reliableChange === undefined) return null;
  const delta = lastNum - firstNum;
  if (Math.abs(delta) * 10 < Math.round(s.reliableChange * 10) * s.den) return 'no_change';
  const better = s.higherIsWorse ? delta < 0 : delta > 0;
  if (!better) return 'deteriorated';
  return isClinical(s, firstNum) === true && isClinical(s, lastNum) === false ? 'recovered' : 'improved';
}
