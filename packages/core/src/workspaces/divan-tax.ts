/**
 * The tax on Diván's own invoices to a therapist (issue 27): Diván is a Spanish company selling an
 * electronically supplied service, so where its invoice is taxed follows the customer.
 * - a customer in Spain's IVA territory: 21 % IVA, business or consumer;
 * - a business elsewhere in the EU with a VAT id: 0 %, «Inversión del sujeto pasivo» (reverse charge);
 * - the Canary Islands, Ceuta and Melilla (Spain, outside the IVA territory, told by the postal code):
 *   no IVA;
 * - outside the EU: no IVA (not subject by the place-of-supply rules);
 * - an EU consumer (no VAT id): Spain's 21 %, as long as Diván's sales to EU consumers stay under the
 *   €10,000 a year above which OSS asks for the customer's country's rate.
 * To confirm with the asesor before selling outside Spain. VERI*FACTU's encoding of each case is the
 * invoicing module's.
 */

/** The EU's member states by ISO 3166-1 alpha-2 (Greece is GR here; its VAT ids start with EL). */
export const EU_MEMBER_STATES = [
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU',
  'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
] as const; // prettier-ignore

export type EuMemberState = (typeof EU_MEMBER_STATES)[number];
const isEuMember = (country: string): country is EuMemberState => (EU_MEMBER_STATES as readonly string[]).includes(country);

export const REVERSE_CHARGE_LEGEND = 'Inversión del sujeto pasivo';
export const OUTSIDE_VAT_TERRITORY_LEGEND = 'Operación no sujeta a IVA: Canarias, Ceuta o Melilla';
export const NOT_SUBJECT_LEGEND = 'Operación no sujeta a IVA por las reglas de localización';

export type DivanTaxCase = 'spain' | 'eu_consumer' | 'reverse_charge' | 'outside_vat_territory' | 'outside_eu';
export type DivanTax = { case: DivanTaxCase; vatRate: 21 | 0; legend: string | null };

/** Who Diván invoices: the billing data of Ajustes › Pagos. */
export type DivanCustomer = {
  /** ISO 3166-1 alpha-2, e.g. 'ES'. */
  country: string;
  postalCode?: string | null;
  /** An EU VAT id with its country prefix ('FR12345678901'), for a business outside Spain. */
  vatId?: string | null;
};

/** Postal codes of Spain outside its IVA territory: Las Palmas (35), Santa Cruz de Tenerife (38), Ceuta (51), Melilla (52). */
const OUTSIDE_VAT_TERRITORY = /^(35|38|51|52)\d{3}$/;

/**
 * An EU VAT id's shape: the member state's prefix (EL for Greece) and 2 to 12 letters or digits. Its
 * registration (VIES) is checked by the payment provider when the id is saved, not here.
 */
export function euVatIdCountry(raw: string): EuMemberState | null {
  const id = raw.replace(/[\s.-]/g, '').toUpperCase();
  const match = /^([A-Z]{2})([0-9A-Z]{2,12})$/.exec(id);
  if (!match) return null;
  // Greece's VAT ids start with EL, never with its ISO code.
  if (match[1] === 'GR') return null;
  const country = match[1] === 'EL' ? 'GR' : match[1]!;
  return isEuMember(country) ? country : null;
}

/** The tax case, IVA rate and legend of Diván's invoice to `customer`. */
export function divanTax(customer: DivanCustomer): DivanTax {
  const country = customer.country.trim().toUpperCase();
  if (country === 'ES') {
    const postal = (customer.postalCode ?? '').replace(/\s/g, '');
    if (OUTSIDE_VAT_TERRITORY.test(postal)) return { case: 'outside_vat_territory', vatRate: 0, legend: OUTSIDE_VAT_TERRITORY_LEGEND };
    return { case: 'spain', vatRate: 21, legend: null };
  }
  if (!isEuMember(country)) return { case: 'outside_eu', vatRate: 0, legend: NOT_SUBJECT_LEGEND };
  if (customer.vatId && euVatIdCountry(customer.vatId) === country)
    return { case: 'reverse_charge', vatRate: 0, legend: REVERSE_CHARGE_LEGEND };
  return { case: 'eu_consumer', vatRate: 21, legend: null };
}
