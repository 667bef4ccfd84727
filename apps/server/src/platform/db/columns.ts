import { text } from 'drizzle-orm/pg-core';

/** The billing address of spec §3, shared by workspaces and patients (same columns in both tables). */
export const billingAddressColumns = () => ({
  billingFullName: text('billing_full_name'),
  billingTaxId: text('billing_tax_id'),
  billingLine1: text('billing_line1'),
  billingLine2: text('billing_line2'),
  billingCity: text('billing_city'),
  billingZipCode: text('billing_zip_code'),
  billingCountry: text('billing_country'),
});
