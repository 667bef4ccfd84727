import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packRefundCents, packStatusOf } from './packs';

describe('packRefundCents', () => {
  it('values unused sessions at their share of the price, to the cent', () => {
    expect(packRefundCents(50000, 10, 4)).toBe(20000);
    expect(packRefundCents(10000, 3, 1)).toBe(3333);
    expect(packRefundCents(10000, 3, 3)).toBe(10000);
    expect(packRefundCents(10000, 3, 0)).toBe(0);
  });
  it('property: never above the price, growing with each unused session by at most one share, the whole price for all', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: 100 }), fc.nat(), (price, total, k) => {
        const unused = k % (total + 1);
        const refund = packRefundCents(price, total, unused);
        expect(refund).toBeGreaterThanOrEqual(0);
        expect(refund).toBeLessThanOrEqual(price);
        if (unused < total) {
          const step = packRefundCents(price, total, unused + 1) - refund;
          expect(step).toBeGreaterThanOrEqual(Math.floor(price / total));
          expect(step).toBeLessThanOrEqual(Math.ceil(price / total));
        }
        expect(packRefundCents(price, total, total)).toBe(price);
      }),
    );
  });
});

describe('packStatusOf', () => {
  it('is used up, expired or refunded, else active', () => {
    expect(packStatusOf({ sessionsTotal: 5, used: 2, refundedSessions: 0, expiresOn: '2026-12-31' }, '2026-11-26')).toBe('active');
    expect(packStatusOf({ sessionsTotal: 5, used: 5, refundedSessions: 0, expiresOn: null }, '2026-11-26')).toBe('used');
    expect(packStatusOf({ sessionsTotal: 5, used: 2, refundedSessions: 0, expiresOn: '2026-11-25' }, '2026-11-26')).toBe('expired');
    expect(packStatusOf({ sessionsTotal: 5, used: 2, refundedSessions: 3, expiresOn: null }, '2026-11-26')).toBe('refunded');
  });
});
