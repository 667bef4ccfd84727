import { isValidSpanishTaxId, normalizeTaxId } from '@divan/core';

/**
 * Diván as the seller of its own invoices (issue 27): the company that runs this server, from
 * OPERATOR_NAME, OPERATOR_NIF, OPERATOR_ADDRESS, OPERATOR_POSTAL_CODE and OPERATOR_CITY. None set: the
 * development seller below (its invoices are valid only as tests); some set and others not: start-up
 * stops, as it does in production with Stripe Billing and none set.
 */
export type OperatorSeller = { name: string; taxId: string; line1: string; zipCode: string; city: string; country: string };

export const DEV_OPERATOR_SELLER: OperatorSeller = {
  name: 'Diván (desarrollo: facturas de prueba)',
  taxId: 'B00000000',
  line1: 'Calle de Prueba 1',
  zipCode: '28001',
  city: 'Madrid',
  country: 'España',
};

type OperatorEnv = {
  OPERATOR_NAME?: string;
  OPERATOR_NIF?: string;
  OPERATOR_ADDRESS?: string;
  OPERATOR_POSTAL_CODE?: string;
  OPERATOR_CITY?: string;
};

/** The seller from the environment: `seller` null when none is set, `problem` the first variable missing or wrong. */
export function operatorSeller(e: OperatorEnv): { seller: OperatorSeller | null; problem?: string } {
  const given: [keyof OperatorEnv, string | undefined][] = [
    ['OPERATOR_NAME', e.OPERATOR_NAME?.trim()],
    ['OPERATOR_NIF', e.OPERATOR_NIF?.trim()],
    ['OPERATOR_ADDRESS', e.OPERATOR_ADDRESS?.trim()],
    ['OPERATOR_POSTAL_CODE', e.OPERATOR_POSTAL_CODE?.trim()],
    ['OPERATOR_CITY', e.OPERATOR_CITY?.trim()],
  ];
  if (given.every(([, v]) => !v)) return { seller: null };
  const missing = given.find(([, v]) => !v);
  if (missing) return { seller: null, problem: `${missing[0]}: required with the other OPERATOR_* variables (Diván's own invoices)` };
  const [name, nif, line1, zipCode, city] = given.map(([, v]) => v!);
  if (!isValidSpanishTaxId(nif!)) return { seller: null, problem: 'OPERATOR_NIF: not a valid Spanish NIF or CIF' };
  return { seller: { name: name!, taxId: normalizeTaxId(nif!), line1: line1!, zipCode: zipCode!, city: city!, country: 'España' } };
}
