import { describe, expect, it } from 'vitest';
import { formatCents, formatInteger, groupThousands, pageRangeLabel } from './format';

// Intl puts a no-break space (U+00A0) between the amount and the euro sign; written as a plain
// space here for readability and swapped back.
const nb = (s: string) => s.replace(/ /g, '\u00a0');

describe('formatCents', () => {
  it('writes Spanish euros with the thousands dot from four digits', () => {
    expect(formatCents(0)).toBe(nb('0,00 €'));
    expect(formatCents(5)).toBe(nb('0,05 €'));
    expect(formatCents(6250)).toBe(nb('62,50 €'));
    expect(formatCents(99999)).toBe(nb('999,99 €'));
    expect(formatCents(100000)).toBe(nb('1.000,00 €'));
    expect(formatCents(123456)).toBe(nb('1.234,56 €'));
    expect(formatCents(1234560)).toBe(nb('12.345,60 €'));
    expect(formatCents(100000000)).toBe(nb('1.000.000,00 €'));
  });

  it('writes negative amounts with a minus sign, and never "-0,00 €"', () => {
    expect(formatCents(-50)).toBe(nb('-0,50 €'));
    expect(formatCents(-123456)).toBe(nb('-1.234,56 €'));
    expect(formatCents(-0)).toBe(nb('0,00 €'));
  });

  it('keeps the cents of the largest amounts (no detour through a double)', () => {
    expect(formatCents(Number.MAX_SAFE_INTEGER)).toBe(nb('90.071.992.547.409,91 €'));
  });

  it('refuses anything but integer cents', () => {
    for (const v of [12.5, 0.1, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1])
      expect(() => formatCents(v)).toThrow(RangeError);
  });
});

describe('formatInteger', () => {
  it('groups counts from four digits', () => {
    expect(formatInteger(0)).toBe('0');
    expect(formatInteger(999)).toBe('999');
    expect(formatInteger(1234)).toBe('1.234');
    expect(formatInteger(20000)).toBe('20.000');
    expect(formatInteger(-5000)).toBe('-5.000');
  });
});

describe('groupThousands (fallback for engines without useGrouping: "always")', () => {
  it('adds the dot to a four-digit integer part only', () => {
    expect(groupThousands(nb('1234,56 €'))).toBe(nb('1.234,56 €'));
    expect(groupThousands(nb('-1234,56 €'))).toBe(nb('-1.234,56 €'));
    expect(groupThousands('1234')).toBe('1.234');
    for (const done of [nb('12.345,60 €'), nb('1.234,56 €'), nb('999,99 €'), '123', '12.345', '1.000.000'])
      expect(groupThousands(done)).toBe(done);
  });

  it('makes what the locale default writes read like "always"', () => {
    const localeDefault = new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' });
    for (const cents of [0, 99999, 123456, -123456, 1234560, 100000000])
      expect(groupThousands(localeDefault.format(cents / 100))).toBe(formatCents(cents));
  });
});

describe('pageRangeLabel', () => {
  it('says which rows a page shows, in Spanish', () => {
    expect(pageRangeLabel(1, 50, 20000)).toBe('1–50 de 20.000');
    expect(pageRangeLabel(21, 50, 1234)).toBe('1.001–1.050 de 1.234');
    expect(pageRangeLabel(3, 50, 120)).toBe('101–120 de 120');
    expect(pageRangeLabel(1, 50, 0)).toBe('0 de 0');
  });
});
