import { patientBuyerName, simplifiedInvoiceProblem, withholdingProblem, type BuyerKind, type InvoiceBuyer } from '@divan/core';
import { AppError } from '../../platform/errors';
import { withholdingRefused } from './invoice-lines';
import type { InvoiceLineRow, InvoiceParty } from './invoices.tables';
import { registrationAmounts } from './verifactu/amounts';

/** What a patient's file gives an invoice as its buyer (their billing data, or their name when they have none). */
export type PatientBilling = {
  firstName: string;
  lastName: string | null;
  email: string | null;
  billingFullName: string | null;
  billingTaxId: string | null;
  billingLine1: string | null;
  billingLine2: string | null;
  billingCity: string | null;
  billingZipCode: string | null;
  billingCountry: string | null;
};

/** The patient as buyer. */
export const patientAsBuyer = (p: PatientBilling): InvoiceParty => ({
  kind: 'patient',
  fullName: patientBuyerName([p.firstName, p.lastName].filter(Boolean).join(' '), { fullName: p.billingFullName }),
  taxId: p.billingTaxId ?? null,
  line1: p.billingLine1 ?? null,
  line2: p.billingLine2 ?? null,
  city: p.billingCity ?? null,
  zipCode: p.billingZipCode ?? null,
  country: p.billingCountry ?? null,
  email: p.email ?? null,
});

/** A buyer given in full (a guardian, a company, an insurer), its absent fields null. */
export const givenBuyer = (given: InvoiceBuyer): InvoiceParty => ({
  ...given,
  taxId: given.taxId || null,
  line1: given.line1 ?? null,
  line2: given.line2 ?? null,
  city: given.city ?? null,
  zipCode: given.zipCode ?? null,
  country: given.country ?? null,
  email: given.email ?? null,
});

/** What issuing checks of each line: its withholding, and the amounts that make the invoice's. */
export type BuyerTaxLine = Pick<InvoiceLineRow, 'position' | 'withholdingRate' | 'base' | 'vat'>;

/**
 * What the buyer allows, checked at issuing (manual, batch and automatic invoices alike): no withholding
 * from a private person (a draft written before the rule may still carry one), and, when `whole` (the
 * lines are the whole invoice: an ordinary one, or a rectifying one by substitution), no simplified
 * invoice above 400,00 € (the buyer's tax id then required). Refused at the field, in Spanish.
 */
export function checkBuyerTaxes(buyer: InvoiceParty, lines: readonly BuyerTaxLine[], whole: boolean): void {
  for (const l of lines) {
    const withheld = withholdingProblem(buyer.kind as BuyerKind, l.withholdingRate);
    if (withheld) throw withholdingRefused(l.position, withheld);
  }
  if (!whole) return;
  const { vatTotalCents, totalCents } = registrationAmounts(lines);
  const simplified = simplifiedInvoiceProblem({ baseCents: totalCents - vatTotalCents, vatCents: vatTotalCents, buyerTaxId: buyer.taxId });
  if (simplified) throw new AppError('invalid_argument', [{ path: 'buyer.taxId', message: simplified }], simplified);
}
