import { describe, expect, it } from 'vitest';
import { centsToDecimalText, centsToEuros, eurosToCents } from './euros';

describe('amounts typed in euros', () => {
  it('reads amounts written the Spanish way, or with a decimal point, into cents', () => {
    expect(eurosToCents('60')).toBe(6000);
    expect(eurosToCents('62,5')).toBe(6250);
    expect(eurosToCents('62,50 €')).toBe(6250);
    expect(eurosToCents(' 45 € ')).toBe(4500);
    expect(eurosToCents('62.50')).toBe(6250);
    expect(eurosToCents('1.200')).toBe(120000);
    expect(eurosToCents('1.200,75')).toBe(120075);
    expect(eurosToCents('0,07')).toBe(7);
  });

  it('an empty field is null; anything that is not an amount is NaN', () => {
    expect(eurosToCents('')).toBeNull();
    expect(eurosToCents('   ')).toBeNull();
    for (const text of ['sesenta', '60,505', '1,234', '-5', '10000000']) expect(eurosToCents(text), text).toBeNaN();
  });

  it('shows cents back as the field would', () => {
    expect(centsToEuros(6000)).toBe('60');
    expect(centsToEuros(6250)).toBe('62,50');
    expect(centsToEuros(5)).toBe('0,05');
    expect(centsToEuros(null)).toBe('');
  });
});

describe('cents as a spreadsheet decimal', () => {
  it('writes the exact amount with a decimal comma, no symbol and no grouping', () => {
    expect(centsToDecimalText(-2100)).toBe('-21,00');
    expect(centsToDecimalText(5)).toBe('0,05');
    expect(centsToDecimalText(-5)).toBe('-0,05');
    expect(centsToDecimalText(0)).toBe('0,00');
    expect(centsToDecimalText(123456)).toBe('1234,56');
    expect(centsToDecimalText(900719925474099)).toBe('9007199254740,99');
    expect(centsToDecimalText(4001, '.')).toBe('40.01');
  });
});
