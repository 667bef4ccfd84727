import type { InvoiceBuyer } from '@divan/core';
import type { InvoiceParty } from './invoices.tables';

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
  fullName: p.billingFullName || [p.firstName, p.lastName].filter(Boolean).join(' '),
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
