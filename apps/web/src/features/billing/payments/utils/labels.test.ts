import { describe, expect, it } from 'vitest';
import { brandName, expiryOf } from './labels';

describe('brandName', () => {
  it("writes Stripe's brand codes as people do", () => {
    expect(brandName('visa')).toBe('Visa');
    expect(brandName('amex')).toBe('American Express');
    expect(brandName('maestro')).toBe('Maestro');
  });
  it('calls an unknown or missing brand a card', () => {
    expect(brandName('card')).toBe('Tarjeta');
    expect(brandName('unknown')).toBe('Tarjeta');
    expect(brandName('')).toBe('Tarjeta');
  });
});

describe('expiryOf', () => {
  it('is MM/AA', () => {
    expect(expiryOf({ expMonth: 7, expYear: 2028 })).toBe('07/28');
    expect(expiryOf({ expMonth: 12, expYear: 2030 })).toBe('12/30');
  });
  it('is a dash when Stripe did not say', () => {
    expect(expiryOf({ expMonth: 0, expYear: 0 })).toBe('—');
  });
});
