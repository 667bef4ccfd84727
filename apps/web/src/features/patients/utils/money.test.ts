import { describe, expect, it } from 'vitest';
import { centsToEuros, eurosToCents } from './money';

describe('session price in euros', () => {
  it('reads amounts written the Spanish way into cents', () => {
    expect(eurosToCents('60')).toBe(6000);
    expect(eurosToCents('62,5')).toBe(6250);
    expect(eurosToCents('62,50 €')).toBe(6250);
    expect(eurosToCents('62.50')).toBe(6250);
    expect(eurosToCents('1.200')).toBe(120000);
    expect(eurosToCents('1.200,75')).toBe(120075);
    expect(eurosToCents('')).toBeNull();
    expect(eurosToCents('sesenta')).toBeNaN();
    expect(eurosToCents('60,505')).toBeNaN();
  });

  it('shows cents back as the field would', () => {
    expect(centsToEuros(6000)).toBe('60');
    expect(centsToEuros(6250)).toBe('62,50');
    expect(centsToEuros(5)).toBe('0,05');
    expect(centsToEuros(null)).toBe('');
  });
});
