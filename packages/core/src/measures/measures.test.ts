import { describe, expect, it } from 'vitest';
import { CORE_COPYRIGHT, MEASURES, MEASURE_KEYS, answerProblems, jacobsonTruax, measureOf, reliableChange, scoreMeasure } from '.';

/** Golden vectors: every expected number below was computed by hand from the instruments' published scoring rules. */
const main = (key: keyof typeof MEASURES, answers: number[]) => scoreMeasure(measureOf(key), answers).scales[0]!;
const change = (key: keyof typeof MEASURES, a: number[], b: number[]) =>
  reliableChange(measureOf(key).scales[0]!, main(key, a).num, main(key, b).num);

describe('the measures as data', () => {
  it('are six, in Spanish, with their item counts and a licence line each; CORE shows its copyright line', () => {
    expect(MEASURE_KEYS.map((k) => [k, MEASURES[k].items.length, MEASURES[k].language])).toEqual([
      ['phq9', 9, 'es-ES'],
      ['gad7', 7, 'es-ES'],
      ['who5', 5, 'es-ES'],
      ['dass21', 21, 'es-ES'],
      ['core10', 10, 'es-ES'],
      ['coreom', 34, 'es-ES'],
    ]);
    for (const k of MEASURE_KEYS) expect(MEASURES[k].copyright.length).toBeGreaterThan(10);
    expect(MEASURES.coreom.copyright).toBe('© CORE System Trust: https://www.coresystemtrust.org.uk/copyright.pdf');
    expect(MEASURES.core10.copyright).toBe(CORE_COPYRIGHT);
    // Each CORE-OM item in exactly one domain.
    const domains = MEASURES.coreom.scales.slice(1).flatMap((s) => s.items);
    expect([...domains].sort((a, b) => a - b)).toEqual(Array.from({ length: 34 }, (_, i) => i + 1));
  });

  it('refuse a partial or invalid answer, item by item, in Spanish', () => {
    const phq = measureOf('phq9');
    expect(answerProblems(phq, [0, 1, 2, 3, 0, 1, 2, 3, 0])).toEqual([]);
    expect(answerProblems(phq, [0, 1, 2, 3, 0, 1, 2, 3])).toEqual([{ path: 'answers.8', message: 'Responde la pregunta 9' }]);
    expect(answerProblems(phq, [0, 1, 2, 4, 0, 1, null, 3, 0])).toEqual([
      { path: 'answers.3', message: 'La respuesta a la pregunta 4 no es válida' },
      { path: 'answers.6', message: 'Responde la pregunta 7' },
    ]);
    expect(answerProblems(measureOf('who5'), [5, 5, 5, 5, 5, 5])).toEqual([
      { path: 'answers', message: 'El cuestionario tiene 5 preguntas' },
    ]);
    expect(() => scoreMeasure(phq, [1, 1])).toThrow();
  });
});

describe('PHQ-9', () => {
  it('sums 0–27 into its bands, cut-off 10, item 9 flags', () => {
    const s = scoreMeasure(measureOf('phq9'), [1, 2, 1, 2, 1, 1, 2, 1, 0]);
    expect(s.scales[0]).toMatchObject({ num: 11, value: 11, clinical: true, band: { label: 'Moderada' } });
    expect(s.risk).toBe(false);
    expect(main('phq9', [0, 0, 0, 0, 0, 0, 0, 0, 0])).toMatchObject({ value: 0, band: { label: 'Mínima' }, clinical: false });
    expect(main('phq9', [1, 1, 1, 1, 1, 0, 0, 0, 0]).band?.label).toBe('Leve');
    expect(main('phq9', [2, 2, 2, 2, 2, 2, 2, 1, 0]).band?.label).toBe('Moderadamente grave'); // 15
    expect(main('phq9', [3, 3, 3, 3, 3, 3, 3, 3, 3])).toMatchObject({ value: 27, band: { label: 'Grave' } });
    expect(main('phq9', [1, 1, 1, 1, 1, 1, 1, 1, 1]).clinical).toBe(false); // 9: below the cut-off
    const risky = scoreMeasure(measureOf('phq9'), [0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect([risky.risk, risky.riskItems]).toEqual([true, [9]]);
  });
  it('reliable change is 6 points; recovery crosses 10', () => {
    const eleven = [1, 2, 1, 2, 1, 1, 2, 1, 0];
    expect(change('phq9', eleven, [0, 1, 0, 1, 0, 1, 1, 0, 0])).toBe('recovered'); // 11 → 4
    expect(change('phq9', eleven, [1, 1, 1, 1, 1, 1, 0, 0, 0])).toBe('no_change'); // 11 → 6 (−5)
    expect(change('phq9', eleven, [2, 2, 2, 2, 2, 2, 2, 2, 1])).toBe('deteriorated'); // 11 → 17
    expect(change('phq9', [3, 3, 3, 3, 2, 2, 2, 1, 1], [2, 2, 2, 2, 1, 1, 1, 1, 0])).toBe('improved'); // 20 → 12, still clinical
  });
});

describe('GAD-7', () => {
  it('sums 0–21, bands 5/10/15, reliable change 4', () => {
    expect(main('gad7', [2, 2, 2, 2, 1, 1, 1])).toMatchObject({ value: 11, band: { label: 'Moderada' }, clinical: true });
    expect(main('gad7', [3, 3, 3, 3, 3, 0, 0])).toMatchObject({ value: 15, band: { label: 'Grave' } });
    expect(change('gad7', [2, 2, 2, 2, 1, 1, 1], [1, 1, 1, 1, 1, 1, 0])).toBe('recovered'); // 11 → 6
    expect(change('gad7', [2, 2, 2, 2, 1, 1, 1], [2, 2, 1, 1, 1, 1, 0])).toBe('no_change'); // 11 → 8
    expect(change('gad7', [1, 1, 1, 1, 1, 1, 0], [2, 2, 1, 1, 1, 1, 2])).toBe('deteriorated'); // 6 → 10
  });
});

describe('WHO-5', () => {
  it('the raw 0–25 × 4 is the 0–100 scale; below 52 is low well-being; 10 points is reliable', () => {
    expect(main('who5', [2, 2, 1, 1, 2])).toMatchObject({ num: 32, value: 32, band: { label: 'Bienestar bajo' }, clinical: true });
    expect(main('who5', [1, 1, 1, 1, 1])).toMatchObject({ value: 20, band: { label: 'Bienestar muy bajo' } });
    expect(main('who5', [3, 3, 3, 2, 2])).toMatchObject({ value: 52, clinical: false, band: { label: 'Bienestar adecuado' } });
    expect(main('who5', [5, 5, 5, 5, 5]).value).toBe(100);
    expect(change('who5', [2, 2, 1, 1, 2], [3, 3, 3, 2, 3])).toBe('recovered'); // 32 → 56
    expect(change('who5', [2, 2, 1, 1, 2], [2, 2, 2, 2, 2])).toBe('no_change'); // 32 → 40
    expect(change('who5', [4, 4, 4, 4, 4], [3, 3, 3, 3, 3])).toBe('deteriorated'); // 80 → 60 (higher is better)
  });
});

describe('DASS-21', () => {
  it('three subscales of 7 items each, ×2, with their own bands', () => {
    const s = scoreMeasure(measureOf('dass21'), Array(21).fill(1));
    expect(s.scales.map((x) => [x.key, x.value, x.band?.label, x.clinical])).toEqual([
      ['depression', 14, 'Moderada', true],
      ['anxiety', 14, 'Moderada', true],
      ['stress', 14, 'Normal', false],
    ]);
    // Only the stress items (1, 6, 8, 11, 12, 14, 18) at 3: stress 42, the others 0.
    const stress = Array(21).fill(0);
    for (const n of [1, 6, 8, 11, 12, 14, 18]) stress[n - 1] = 3;
    expect(scoreMeasure(measureOf('dass21'), stress).scales.map((x) => [x.value, x.band?.label])).toEqual([
      [0, 'Normal'],
      [0, 'Normal'],
      [42, 'Extremadamente grave'],
    ]);
  });
  it('reliable change from the published SD and α: 1.96 · SD · √(2(1 − α)), whole doubled points', () => {
    // Depression: 1.96 · 7.74 · √0.24 = 7.43 → 8; anxiety 1.96 · 5.90 · √0.36 = 6.94 → 8 (even steps); stress 7.36 → 8.
    expect(jacobsonTruax(7.74, 0.88)).toBe(8);
    expect(jacobsonTruax(5.9, 0.82)).toBe(7);
    expect(jacobsonTruax(5.9, 0.82, 2)).toBe(8);
    expect(MEASURES.dass21.scales.map((s) => s.reliableChange)).toEqual([8, 8, 8]);
    const dep = MEASURES.dass21.scales[0]!;
    expect(reliableChange(dep, 14, 6)).toBe('recovered'); // 14 → 6 is −8, and below 10
    expect(reliableChange(dep, 14, 10)).toBe('no_change'); // −4
  });
});

describe('CORE-10', () => {
  it('the clinical score is the mean × 10 (= the sum); items 2 and 3 reversed; cut-off 11; item 6 flags', () => {
    const s = scoreMeasure(measureOf('core10'), [3, 0, 0, 3, 2, 1, 3, 3, 3, 3]);
    // 3 + 4 + 4 + 3 + 2 + 1 + 3 + 3 + 3 + 3 = 29
    expect(s.scales[0]).toMatchObject({ num: 290, den: 10, value: 29, band: { label: 'Grave' }, clinical: true });
    expect([s.risk, s.riskItems]).toEqual([true, [6]]);
    expect(main('core10', Array(10).fill(2))).toMatchObject({ value: 20, band: { label: 'Moderado-grave' } });
    // 10 is below CORE-10's cut-off of 11 (band «Bajo»): 1 everywhere but items 2, 3 at 3 (→ 1).
    expect(main('core10', [1, 3, 3, 1, 1, 1, 1, 1, 1, 1])).toMatchObject({ value: 10, clinical: false, band: { label: 'Bajo' } });
  });
  it('reliable change is 6 on the clinical score', () => {
    expect(change('core10', [3, 0, 0, 3, 2, 1, 3, 3, 3, 3], [1, 3, 3, 1, 0, 0, 1, 1, 1, 1])).toBe('recovered'); // 29 → 8
    expect(change('core10', Array(10).fill(2), [2, 2, 2, 2, 2, 2, 2, 0, 0, 0])).toBe('improved'); // 20 → 14: −6, still ≥ 11
    expect(change('core10', Array(10).fill(2), [2, 2, 2, 2, 2, 2, 2, 1, 0, 0])).toBe('no_change'); // 20 → 15: −5
  });
});

describe('CORE-OM', () => {
  const reversed = new Set([3, 4, 7, 12, 19, 21, 31, 32]);
  it('34 items, 8 reversed; the clinical score is the mean × 10, exactly; domains as means × 10', () => {
    const s = scoreMeasure(measureOf('coreom'), Array(34).fill(1));
    // 26 items at 1 + 8 reversed at 3 = 50; 500 / 34 = 14.705… → 14.7, band «Leve».
    expect(s.scales[0]).toMatchObject({ num: 500, den: 34, value: 14.7, band: { label: 'Leve' }, clinical: true });
    expect(s.scales.slice(1).map((x) => [x.key, x.value])).toEqual([
      ['wellbeing', 20], // 3 + 1 + 1 + 3 = 8 over 4 items
      ['problems', 10],
      ['functioning', 20], // 6 reversed at 3 + 6 at 1 = 24 over 12
      ['risk', 10],
    ]);
    expect(s.risk).toBe(true); // items 9, 16 and 24 at 1
  });
  it('reliable change is 5 on the clinical score (17 points of sum); 10.0 is in the clinical range', () => {
    const withSum = (extra: number) => Array.from({ length: 34 }, (_, i) => (reversed.has(i + 1) ? 0 : i === 0 ? extra : 0));
    // All zeros but the reversed items (4 each = 32) and item 1.
    expect(main('coreom', withSum(2))).toMatchObject({ num: 340, value: 10, clinical: true }); // 34 / 34 × 10
    expect(main('coreom', withSum(1))).toMatchObject({ num: 330, value: 9.7, clinical: false });
    const fifty = Array(34).fill(1);
    expect(change('coreom', fifty, withSum(2))).toBe('no_change'); // Δ sum 16: 4.7 points
    expect(change('coreom', fifty, withSum(1))).toBe('recovered'); // Δ sum 17: exactly 5.0, and below 10
  });
});
