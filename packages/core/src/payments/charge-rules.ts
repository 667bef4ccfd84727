import type { ErrorCode } from '../errors';
import { errorMessage } from '../errors';

/** Spec §9: a card charge must be above 0,50 € (threshold 50 in minor units): 50 cents is refused, 51 allowed. */
export const MIN_CHARGE_CENTS = 50;

/** Spec §5: the six reasons the «Cobrar» button is disabled, each the code the server refuses with. */
export const CHARGE_BLOCKS = [
  'charge_not_chargeable',
  'charge_workspace_invoice',
  'charge_amount_too_low',
  'charge_no_patient',
  'charge_not_connected',
  'charge_no_payment_method',
] as const satisfies readonly ErrorCode[];
export type ChargeBlock = (typeof CHARGE_BLOCKS)[number];

/** What decides whether an invoice can be charged off-session with the patient's saved card. */
export type ChargeFacts = {
  status: 'draft' | 'issued' | 'voided';
  paymentStatus: 'pending' | 'paid' | 'refunded';
  totalCents: number;
  sellerType: 'therapist' | 'workspace';
  hasPatient: boolean;
  /** The therapist's payment account exists and may take charges. */
  therapistCanCharge: boolean;
  /** The patient saved a card on the therapist's account… */
  patientHasCard: boolean;
  /** …and left «cobros automáticos» on. */
  autoCharge: boolean;
};

/**
 * Why the invoice cannot be charged with the saved card, or null when it can. The order is the one a
 * person fixes things in: an invoice that is not pending (or a workspace's) first, then the amount,
 * the patient, the therapist's account and the patient's card.
 */
export function chargeBlockOf(f: ChargeFacts): ChargeBlock | null {
  if (f.status !== 'issued' || f.paymentStatus !== 'pending') return 'charge_not_chargeable';
  if (f.sellerType === 'workspace') return 'charge_workspace_invoice';
  if (f.totalCents <= MIN_CHARGE_CENTS) return 'charge_amount_too_low';
  if (!f.hasPatient) return 'charge_no_patient';
  if (!f.therapistCanCharge) return 'charge_not_connected';
  if (!f.patientHasCard || !f.autoCharge) return 'charge_no_payment_method';
  return null;
}

/** The sentence shown beside the disabled button. */
export const chargeBlockMessage = (b: ChargeBlock) => errorMessage(b);

/** Why a pay link cannot be made: each an error code the server refuses with. */
export const PAY_LINK_BLOCKS = [
  'charge_not_chargeable',
  'charge_amount_too_low',
  'charge_not_connected',
] as const satisfies readonly ErrorCode[];
export type PayLinkBlock = (typeof PAY_LINK_BLOCKS)[number];

/** A pay-by-link checkout takes any issued, pending invoice above the minimum (also the workspace's). */
export function payLinkBlockOf(
  f: Pick<ChargeFacts, 'status' | 'paymentStatus' | 'totalCents'> & { sellerCanCharge: boolean },
): PayLinkBlock | null {
  if (f.status !== 'issued' || f.paymentStatus !== 'pending') return 'charge_not_chargeable';
  if (f.totalCents <= MIN_CHARGE_CENTS) return 'charge_amount_too_low';
  if (!f.sellerCanCharge) return 'charge_not_connected';
  return null;
}

/**
 * What is left to refund of what was charged through Diván; a refund must be above zero and not above it.
 * Returns the error code or null.
 */
export function refundProblemOf(chargedCents: number, refundedCents: number, amountCents: number): ErrorCode | null {
  if (chargedCents <= 0) return 'refund_not_allowed';
  const left = chargedCents - refundedCents;
  if (left <= 0) return 'refund_not_allowed';
  if (!Number.isInteger(amountCents) || amountCents <= 0 || amountCents > left) return 'refund_amount_invalid';
  return null;
}
