import { describe, expect, it } from 'vitest';
import { centsToEuros, eurosToCents } from './money';

describe('euros typed in the session form', () => {
  it('reads Spanish and plain decimals into integer cents', () => {
    expect(eurosToCents('60')).toBe(6000);
    expect(eurosToCents('62,50')).toBe(6250);
    expect(eurosToCents('62.5')).toBe(6250);
    expect(eurosToCents(' 45 € ')).toBe(4500);
    expect(eurosToCents('1.200')).toBe(120000);
    expect(eurosToCents('1.200,05')).toBe(120005);
    expect(eurosToCents('0,07')).toBe(7);
  });
  it('empty means the patient’s price; nonsense is invalid', () => {
    expect(eurosToCents('')).toBeNull();
    expect(eurosToCents('abc')).toBeUndefined();
    expect(eurosToCents('1,234')).toBeUndefined();
    expect(eurosToCents('-5')).toBeUndefined();
  });
  it('writes cents back as the form shows them', () => {
    expect(centsToEuros(6000)).toBe('60');
    expect(centsToEuros(6250)).toBe('62,50');
    expect(centsToEuros(5)).toBe('0,05');
    expect(centsToEuros(null)).toBe('');
  });
});
