import { describe, expect, it } from 'vitest';
import { MIN_CHARGE_CENTS } from '../payments/charge-rules';
import {
  LEARNING_PRICE_MIN,
  isHexColour,
  isWatchedEnough,
  learningPriceWithVat,
  learningVatOf,
  mergeWatched,
  parseVimeoUrl,
  watchedSecondsOf,
} from './learning';

describe('learning price with IVA', () => {
  it('adds 21 % rounded to the cent, half up (values worked by hand)', () => {
    expect(learningVatOf(1)).toBe(0); // 0,21 cents
    expect(learningPriceWithVat(1)).toBe(1);
    expect(learningVatOf(3)).toBe(1); // 0,63 → 1
    expect(learningVatOf(50)).toBe(11); // 10,5 → 11
    expect(learningPriceWithVat(2_479)).toBe(3_000); // 24,79 € → 29,9959 → 30,00 €
    expect(learningPriceWithVat(999_999)).toBe(1_209_999); // 9.999,99 € → 12.099,9879 → 12.099,99 €
    expect(learningPriceWithVat(4_000)).toBe(4_840);
  });
  it('starts at the least price a card can pay with its IVA', () => {
    expect(learningPriceWithVat(LEARNING_PRICE_MIN)).toBeGreaterThan(MIN_CHARGE_CENTS);
    expect(learningPriceWithVat(LEARNING_PRICE_MIN - 1)).toBeLessThanOrEqual(MIN_CHARGE_CENTS);
  });
  it('is base + round(base × 0,21) for every price of the range', () => {
    for (let c = 1; c <= 999_999; c += 997) expect(learningPriceWithVat(c)).toBe(c + Math.round((c * 21) / 100));
  });
});

describe('colour and Vimeo form', () => {
  it('takes 6-digit hex only', () => {
    expect(['#1a2B3c', '#000000'].map(isHexColour)).toEqual([true, true]);
    expect(['1a2b3c', '#fff', '#12345g', '#1234567', ' #123456'].map(isHexColour)).toEqual([false, false, false, false, false]);
  });
  it('reads the id and hash of the Vimeo forms, and refuses the rest', () => {
    expect(parseVimeoUrl('https://vimeo.com/76979871')).toEqual({ id: '76979871', hash: null });
    expect(parseVimeoUrl('https://vimeo.com/76979871/abc123def0')).toEqual({ id: '76979871', hash: 'abc123def0' });
    expect(parseVimeoUrl('https://player.vimeo.com/video/76979871?h=abc123def0')).toEqual({ id: '76979871', hash: 'abc123def0' });
    for (const bad of ['http://vimeo.com/1', 'https://evil.com/video/1', 'https://vimeo.com/abc', 'https://vimeo.com/1/2/3', 'nada'])
      expect(parseVimeoUrl(bad)).toBeNull();
  });
});

describe('watched time', () => {
  it('merges overlapping intervals and clips them to the duration', () => {
    const w = mergeWatched(
      [[0, 10]],
      [
        [5, 20],
        [30, 40],
        [38, 200],
      ],
      100,
    );
    expect(w).toEqual([
      [0, 20],
      [30, 100],
    ]);
    expect(watchedSecondsOf(w)).toBe(90);
    expect(isWatchedEnough(w, 100)).toBe(true);
  });
  it('does not complete by jumping to the end', () => {
    const w = mergeWatched([[0, 5]], [[95, 100]], 100);
    expect(watchedSecondsOf(w)).toBe(10);
    expect(isWatchedEnough(w, 100)).toBe(false);
  });
});
