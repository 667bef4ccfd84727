import { describe, expect, it } from 'vitest';
import { countryCodeOf, formatPhone, normalizePhone, phoneSearchDigits } from './phone';
import { phoneField } from './phone.contracts';

describe('normalizePhone', () => {
  it.each([
    ['612345678', '+34612345678'],
    ['612 34 56 78', '+34612345678'],
    ['612-345-678', '+34612345678'],
    ['(612) 345.678', '+34612345678'],
    ['+34 612 345 678', '+34612345678'],
    ['+34612345678', '+34612345678'],
    ['0034 612 345 678', '+34612345678'],
    ['34 612 345 678', '+34612345678'],
    ['  912 34 56 78 ', '+34912345678'],
    ['+33 6 12 34 56 78', '+33612345678'],
    ['0033 612345678', '+33612345678'],
    ['+1 (202) 555-0123', '+12025550123'],
    ['+44 7911 123456', '+447911123456'],
  ])('%s → %s', (typed, e164) => {
    expect(normalizePhone(typed)).toBe(e164);
  });

  it.each([
    ['12345', 'too short and not Spanish'],
    ['512345678', 'no Spanish number starts with 5'],
    ['61234567', 'eight digits'],
    ['6123456789', 'ten digits without a prefix'],
    ['+34 512 345 678', 'a Spanish prefix with a number that is not Spanish'],
    ['+34 612 345 67', 'a Spanish prefix with eight digits'],
    ['+1234567890123456', 'more than 15 digits'],
    ['612 345 678 ext. 2', 'letters'],
    ['', 'empty'],
  ])('refuses %s (%s)', (typed) => {
    expect(normalizePhone(typed)).toBeNull();
  });
});

describe('formatPhone', () => {
  it('shows Spanish numbers without the prefix, grouped 3-2-2-2', () => {
    expect(formatPhone('+34612345678')).toBe('612 34 56 78');
    expect(formatPhone('+34912345678')).toBe('912 34 56 78');
  });

  it('formats rows kept as typed before numbers were normalised the same way', () => {
    expect(formatPhone('612345678')).toBe('612 34 56 78');
    expect(formatPhone('694 226 163')).toBe('694 22 61 63');
    expect(formatPhone('0034-694-226-163')).toBe('694 22 61 63');
  });

  it('keeps the country code of foreign numbers and groups the rest in threes', () => {
    expect(formatPhone('+33612345678')).toBe('+33 612 345 678');
    expect(formatPhone('+12025550123')).toBe('+1 202 555 0123');
    expect(formatPhone('+447911123456')).toBe('+44 791 112 3456');
    expect(formatPhone('+351912345678')).toBe('+351 912 345 678');
  });

  it('shows what it does not understand as it was typed, and nothing for no number', () => {
    expect(formatPhone(' 1234 (casa) ')).toBe('1234 (casa)');
    expect(formatPhone(null)).toBe('');
    expect(formatPhone(undefined)).toBe('');
  });
});

describe('countryCodeOf', () => {
  it('knows one-, two- and three-digit codes', () => {
    expect(countryCodeOf('12025550123')).toBe('1');
    expect(countryCodeOf('79161234567')).toBe('7');
    expect(countryCodeOf('34612345678')).toBe('34');
    expect(countryCodeOf('351912345678')).toBe('351');
    expect(countryCodeOf('376312345')).toBe('376');
  });
});

describe('phoneSearchDigits', () => {
  it('keeps the digits of a typed number and ignores words', () => {
    expect(phoneSearchDigits('612 34 56')).toBe('6123456');
    expect(phoneSearchDigits('+34 612')).toBe('34612');
    expect(phoneSearchDigits('Laura')).toBe('');
    expect(phoneSearchDigits('12345678Z')).toBe('');
  });
});

describe('phoneField', () => {
  const field = phoneField();
  it('stores E.164, clears with an empty text and keeps null and undefined', () => {
    expect(field.parse('612 34 56 78')).toBe('+34612345678');
    expect(field.parse('')).toBeNull();
    expect(field.parse(null)).toBeNull();
    expect(field.parse(undefined)).toBeUndefined();
  });

  it('refuses a number it cannot store with a Spanish message', () => {
    const result = field.safeParse('512 345');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Teléfono inválido');
  });
});
