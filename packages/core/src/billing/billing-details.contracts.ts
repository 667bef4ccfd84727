// Ajustes › Pagos (issue 27, slice 3): who Diván invoices for a workspace's plan, and the invoices Diván
// issued to it. The tax case of each invoice follows these data (`divanTax`).
import { z } from 'zod';
import { requiredText, textField } from '../fields';
import { msg } from '../messages';
import { isValidSpanishTaxId } from '../patients/tax-id';
import { EU_MEMBER_STATES, euVatIdCountry } from '../workspaces/divan-tax';

/** Countries the billing form offers: Spain, the rest of the EU, and the usual others (Spanish names, ISO 3166-1 alpha-2). */
export const BILLING_COUNTRIES: readonly { code: string; name: string }[] = [
  { code: 'ES', name: 'España' },
  { code: 'DE', name: 'Alemania' }, { code: 'AT', name: 'Austria' }, { code: 'BE', name: 'Bélgica' },
  { code: 'BG', name: 'Bulgaria' }, { code: 'CY', name: 'Chipre' }, { code: 'HR', name: 'Croacia' },
  { code: 'DK', name: 'Dinamarca' }, { code: 'SK', name: 'Eslovaquia' }, { code: 'SI', name: 'Eslovenia' },
  { code: 'EE', name: 'Estonia' }, { code: 'FI', name: 'Finlandia' }, { code: 'FR', name: 'Francia' },
  { code: 'GR', name: 'Grecia' }, { code: 'HU', name: 'Hungría' }, { code: 'IE', name: 'Irlanda' },
  { code: 'IT', name: 'Italia' }, { code: 'LV', name: 'Letonia' }, { code: 'LT', name: 'Lituania' },
  { code: 'LU', name: 'Luxemburgo' }, { code: 'MT', name: 'Malta' }, { code: 'NL', name: 'Países Bajos' },
  { code: 'PL', name: 'Polonia' }, { code: 'PT', name: 'Portugal' }, { code: 'CZ', name: 'República Checa' },
  { code: 'RO', name: 'Rumanía' }, { code: 'SE', name: 'Suecia' },
  { code: 'AD', name: 'Andorra' }, { code: 'AR', name: 'Argentina' }, { code: 'CL', name: 'Chile' },
  { code: 'CO', name: 'Colombia' }, { code: 'US', name: 'Estados Unidos' }, { code: 'MX', name: 'México' },
  { code: 'GB', name: 'Reino Unido' }, { code: 'CH', name: 'Suiza' }, { code: 'UY', name: 'Uruguay' },
]; // prettier-ignore
const COUNTRY_CODES = new Set(BILLING_COUNTRIES.map((c) => c.code));
const isEu = (country: string) => (EU_MEMBER_STATES as readonly string[]).includes(country) && country !== 'ES';

const optional = (label: string, max: number) =>
  textField(label)
    .trim()
    .max(max, { error: msg.maxLength(max) })
    .nullable()
    .optional()
    .transform((v) => v || null);

/**
 * PUT /workspaces/:id/billing/details. In Spain a valid NIF (or NIE, CIF) is required; a business
 * elsewhere in the EU gives its VAT id with the country's prefix (then Diván's invoice is under reverse
 * charge); anyone else the tax id of their country (Diván's invoice is a full one, never simplified).
 */
export const billingDetailsBody = z
  .object({
    name: requiredText('nombre o razón social', 150),
    country: z.string({ error: 'Elige un país' }).refine((c) => COUNTRY_CODES.has(c), { error: 'Elige un país de la lista' }),
    taxId: optional('NIF', 30),
    vatId: optional('NIF-IVA', 20),
    line1: requiredText('dirección', 150),
    city: requiredText('ciudad', 80),
    postalCode: requiredText('código postal', 10).regex(/^[0-9A-Za-z -]{3,10}$/, { error: msg.invalid('Código postal') }),
    /** Where Diván's invoices are mailed; null: the workspace owner's address. */
    email: z
      .email({ error: 'El email no es válido' })
      .max(254)
      .nullable()
      .optional()
      .or(z.literal('').transform(() => null)),
  })
  .superRefine((b, ctx) => {
    if (b.country === 'ES') {
      if (!b.taxId) ctx.addIssue({ code: 'custom', path: ['taxId'], message: 'Escribe el NIF, NIE o CIF' });
      else if (!isValidSpanishTaxId(b.taxId))
        ctx.addIssue({ code: 'custom', path: ['taxId'], message: 'El NIF o CIF no es válido: revisa el carácter de control.' });
      if (!/^\d{5}$/.test(b.postalCode.replace(/\s/g, '')))
        ctx.addIssue({ code: 'custom', path: ['postalCode'], message: 'El código postal español tiene 5 cifras' });
    }
    // Diván's invoice names its buyer by a tax id: without one it would be simplified (F2), which the law
    // caps at 400 € — a yearly plan of a few users goes past it.
    else if (!b.taxId && !b.vatId)
      ctx.addIssue({
        code: 'custom',
        path: ['taxId'],
        message: 'Escribe tu número de identificación fiscal (o el NIF-IVA): sin él, la factura de Diván no puede ir a tu nombre',
      });
    if (b.vatId) {
      if (!isEu(b.country)) ctx.addIssue({ code: 'custom', path: ['vatId'], message: 'El NIF-IVA es para empresas de otro país de la UE' });
      else if (euVatIdCountry(b.vatId) !== b.country)
        ctx.addIssue({
          code: 'custom',
          path: ['vatId'],
          message: `El NIF-IVA no es válido para ese país: empieza por ${b.country === 'GR' ? 'EL' : b.country} y sigue con el número`,
        });
    }
  })
  .transform((b) => ({
    ...b,
    email: b.email ?? null,
    vatId: b.vatId ? b.vatId.replace(/[\s.-]/g, '').toUpperCase() : null,
    taxId: b.taxId ? (b.country === 'ES' ? b.taxId.replace(/[\s.-]/g, '').toUpperCase() : b.taxId) : null,
  }));
export type BillingDetailsBody = z.input<typeof billingDetailsBody>;
export type BillingDetails = z.output<typeof billingDetailsBody>;

const detailsShape = z.object({
  name: z.string(),
  country: z.string(),
  taxId: z.string().nullable(),
  vatId: z.string().nullable(),
  line1: z.string(),
  city: z.string(),
  postalCode: z.string(),
  email: z.string().nullable(),
});

/** GET/PUT …/billing/details: the data, and how Diván's invoices to them are taxed. */
export const billingDetailsResponse = z.object({
  details: detailsShape.nullable(),
  tax: z
    .object({
      case: z.enum(['spain', 'eu_consumer', 'reverse_charge', 'outside_vat_territory', 'outside_eu']),
      vatRate: z.number().int(),
      legend: z.string().nullable(),
    })
    .nullable(),
  /**
   * The provider's VIES check of the EU VAT id (null without one): `pending` until it answers; an id
   * VIES does not know (`unverified`) is invoiced with IVA; `unavailable`: VIES did not answer, tried again.
   */
  vatCheck: z
    .object({
      status: z.enum(['pending', 'verified', 'unverified', 'unavailable']),
      /** The name VIES holds for the id. */
      verifiedName: z.string().nullable(),
      checkedAt: z.string().nullable(),
    })
    .nullable(),
});
export type BillingDetailsResponse = z.infer<typeof billingDetailsResponse>;

/** One of Diván's invoices to the workspace (Ajustes › Pagos), amounts in cents. */
export const divanInvoiceSummary = z.object({
  id: z.uuid(),
  number: z.string(),
  /** YYYY-MM-DD */
  issueDate: z.string(),
  description: z.string(),
  subtotal: z.number().int(),
  vat: z.number().int(),
  total: z.number().int(),
  vatRate: z.number().int(),
});
export type DivanInvoiceSummary = z.infer<typeof divanInvoiceSummary>;
export const divanInvoicesResponse = z.object({ items: z.array(divanInvoiceSummary) });
export type DivanInvoices = z.infer<typeof divanInvoicesResponse>;
