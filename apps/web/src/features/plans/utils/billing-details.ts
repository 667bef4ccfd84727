import { EU_MEMBER_STATES, type BillingDetailsResponse } from '@divan/core';

/** The form's fields, in the order a server's field errors are placed. */
export const BILLING_DETAILS_FIELDS = ['name', 'country', 'taxId', 'vatId', 'line1', 'city', 'postalCode', 'email'] as const;
export type BillingDetailsField = (typeof BILLING_DETAILS_FIELDS)[number];

/** What the form holds: texts, '' where nothing is saved; Spain until someone chooses otherwise. */
export type BillingDetailsValues = Record<BillingDetailsField, string>;

export function billingDetailsValues(details: BillingDetailsResponse['details'] | undefined): BillingDetailsValues {
  return {
    name: details?.name ?? '',
    country: details?.country ?? 'ES',
    taxId: details?.taxId ?? '',
    vatId: details?.vatId ?? '',
    line1: details?.line1 ?? '',
    city: details?.city ?? '',
    postalCode: details?.postalCode ?? '',
    email: details?.email ?? '',
  };
}

/** A VAT id (NIF-IVA) is asked only of a customer elsewhere in the EU (core's rule: reverse charge). */
export const asksVatId = (country: string) => country !== 'ES' && (EU_MEMBER_STATES as readonly string[]).includes(country);

/** The tax id's label: Spain requires one; elsewhere it is optional. */
export const taxIdLabelOf = (country: string) => (country === 'ES' ? 'NIF, NIE o CIF' : 'Número de identificación fiscal');

/** The line under the form: how Diván's invoices to these data are taxed (null before any are saved). */
export function taxLineOf(tax: BillingDetailsResponse['tax'] | undefined): string | null {
  if (!tax) return null;
  if (tax.vatRate > 0) return `Las facturas de Diván llevarán IVA del ${tax.vatRate}\u00a0%.`;
  return tax.legend ? `Las facturas de Diván irán sin IVA, con la mención «${tax.legend}».` : 'Las facturas de Diván irán sin IVA.';
}

/**
 * What the provider's VIES check says of the EU VAT id, and its tone: a VAT id VIES does not know is
 * invoiced with IVA (no reverse charge) until it is corrected.
 */
export function vatCheckLineOf(
  check: BillingDetailsResponse['vatCheck'] | undefined,
): { text: string; tone: 'muted' | 'ok' | 'warning' } | null {
  if (!check) return null;
  switch (check.status) {
    case 'pending':
      return { text: 'Estamos comprobando tu NIF-IVA en VIES, el registro europeo de operadores intracomunitarios.', tone: 'muted' };
    case 'verified':
      return {
        text: check.verifiedName ? `NIF-IVA comprobado en VIES: ${check.verifiedName}.` : 'NIF-IVA comprobado en VIES.',
        tone: 'ok',
      };
    case 'unverified':
      return {
        text: 'VIES no reconoce este NIF-IVA: revisa que sea correcto. Hasta entonces, las facturas de Diván llevarán IVA del 21\u00a0%.',
        tone: 'warning',
      };
    case 'unavailable':
      return { text: 'VIES no ha respondido al comprobar tu NIF-IVA: lo volveremos a intentar.', tone: 'muted' };
  }
}

/** Texts of Ajustes › Pagos and of the dialog on /plans, written once. */
export const paymentsTexts = {
  notManager: 'Solo quien gestiona el plan del espacio ve sus pagos',
  noInvoices: 'Aún no hay facturas de Diván: aparecen aquí cuando se cobra el plan',
  saved: 'Datos de facturación guardados',
  detailsAsked: 'Antes de contratar, dinos a quién facturamos: a ese nombre y NIF irán las facturas de Diván.',
  noCustomer: 'Las tarjetas se añaden al contratar un plan; después podrás cambiarlas aquí.',
} as const;
