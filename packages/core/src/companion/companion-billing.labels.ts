// The companion's consent states and invoice payment states in Spanish: plain data, no zod (the
// companion's small bundle imports them; the contracts build their schemas on them).

/**
 * A consent as its signer reads it in the companion:
 * `to_sign`: waiting for the account's signature, and it is their turn;
 * `waiting`: not complete yet and nothing for them to do now (another signer goes first, or they signed and others have not);
 * `signed`: every signature is in; `expired`: their signing link ran out unsigned; `revoked`: the therapist annulled it.
 */
export const COMPANION_CONSENT_STATUSES = ['to_sign', 'waiting', 'signed', 'expired', 'revoked'] as const;
export type CompanionConsentStatus = (typeof COMPANION_CONSENT_STATUSES)[number];
export const COMPANION_CONSENT_STATUS_LABELS: Record<CompanionConsentStatus, string> = {
  to_sign: 'Pendiente de firmar',
  waiting: 'Esperando otras firmas',
  signed: 'Firmado',
  expired: 'Caducado',
  revoked: 'Anulado',
};

export const COMPANION_INVOICE_PAYMENT_STATUS_LABELS = { pending: 'Pendiente de pago', paid: 'Pagada', refunded: 'Devuelta' } as const;
