import { describe, expect, it } from 'vitest';
import { chargeBlockOf, MIN_CHARGE_CENTS, payLinkBlockOf, refundProblemOf, type ChargeFacts } from './charge-rules';

const ok: ChargeFacts = {
  status: 'issued',
  paymentStatus: 'pending',
  totalCents: 6000,
  sellerType: 'therapist',
  hasPatient: true,
  therapistCanCharge: true,
  patientHasCard: true,
  autoCharge: true,
};

describe('chargeBlockOf (spec §5)', () => {
  it('allows a pending, issued invoice of the therapist above 0,50 € with a saved card', () => {
    expect(chargeBlockOf(ok)).toBeNull();
  });
  it('refuses 0,50 € and less, allows 0,51 € (threshold 50, strictly above)', () => {
    expect(MIN_CHARGE_CENTS).toBe(50);
    expect(chargeBlockOf({ ...ok, totalCents: 40 })).toBe('charge_amount_too_low');
    expect(chargeBlockOf({ ...ok, totalCents: 50 })).toBe('charge_amount_too_low');
    expect(chargeBlockOf({ ...ok, totalCents: 51 })).toBeNull();
  });
  it.each([
    [{ hasPatient: false }, 'charge_no_patient'],
    [{ therapistCanCharge: false }, 'charge_not_connected'],
    [{ patientHasCard: false }, 'charge_no_payment_method'],
    [{ autoCharge: false }, 'charge_no_payment_method'],
    [{ sellerType: 'workspace' as const }, 'charge_workspace_invoice'],
    [{ paymentStatus: 'paid' as const }, 'charge_not_chargeable'],
    [{ paymentStatus: 'refunded' as const }, 'charge_not_chargeable'],
    [{ status: 'draft' as const }, 'charge_not_chargeable'],
    [{ status: 'voided' as const }, 'charge_not_chargeable'],
  ])('%o → %s', (change, code) => {
    expect(chargeBlockOf({ ...ok, ...change })).toBe(code);
  });
  it('a negative (rectifying) total is too low to charge', () => {
    expect(chargeBlockOf({ ...ok, totalCents: -6000 })).toBe('charge_amount_too_low');
  });
});

describe('payLinkBlockOf', () => {
  it('takes a workspace invoice when the workspace can charge', () => {
    expect(payLinkBlockOf({ status: 'issued', paymentStatus: 'pending', totalCents: 6000, sellerCanCharge: true })).toBeNull();
    expect(payLinkBlockOf({ status: 'issued', paymentStatus: 'pending', totalCents: 6000, sellerCanCharge: false })).toBe(
      'charge_not_connected',
    );
    expect(payLinkBlockOf({ status: 'issued', paymentStatus: 'paid', totalCents: 6000, sellerCanCharge: true })).toBe(
      'charge_not_chargeable',
    );
    expect(payLinkBlockOf({ status: 'issued', paymentStatus: 'pending', totalCents: 50, sellerCanCharge: true })).toBe(
      'charge_amount_too_low',
    );
  });
});

describe('refundProblemOf', () => {
  it('refunds up to what is left, never zero or more', () => {
    expect(refundProblemOf(6000, 0, 6000)).toBeNull();
    expect(refundProblemOf(6000, 2000, 4000)).toBeNull();
    expect(refundProblemOf(6000, 2000, 4001)).toBe('refund_amount_invalid');
    expect(refundProblemOf(6000, 0, 0)).toBe('refund_amount_invalid');
    expect(refundProblemOf(6000, 6000, 1)).toBe('refund_not_allowed');
    expect(refundProblemOf(0, 0, 100)).toBe('refund_not_allowed');
  });
});
