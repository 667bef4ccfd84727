// The patient as an invoice's buyer (issue 24): what their billing data gives and what it still lacks.

type BillingData = { fullName?: string | null; taxId?: string | null } | null | undefined;

/** The name their invoices carry: the billing name, else the patient's own (as issuing's buyer takes it). */
export function patientBuyerName(patientName: string, info: BillingData): string {
  return info?.fullName?.trim() || patientName;
}

/**
 * What the patient's billing data lacks for an invoice that identifies them (F1), in Spanish; null when
 * nothing. Only the NIF: a missing billing name is no gap, their own name is printed instead.
 */
export function patientBillingGap(info: BillingData): string | null {
  return info?.taxId?.trim() ? null : 'Falta el NIF: sin él, sus facturas salen simplificadas, sin identificar al destinatario.';
}
