import { z } from 'zod';
import { msg } from '../messages';
import { textField } from '../fields';
import { isValidSpanishTaxId } from '../patients/tax-id';
import { seriesPrefixSchema } from '../invoices/invoice-settings.contracts';

// Its own module: the signed-in shell loads the workspace contracts, and the billing data's tax-id check
// and invoice-series rules (2 KB gzipped) only the billing screens need.

/** Workspace billing fields keep '' as sent (the form clears a field with ''). */
const optionalText = (label: string, max: number) =>
  textField(label)
    .trim()
    .max(max, { error: msg.maxLength(max) })
    .nullable()
    .optional();

export const billingInfo = z.object({
  fullName: optionalText('Nombre o razón social', 150),
  taxId: optionalText('NIF', 20).refine((v) => !v || isValidSpanishTaxId(v), {
    error: 'El NIF o CIF no es válido: revisa el carácter de control.',
  }),
  line1: optionalText('Dirección', 150),
  line2: optionalText('Dirección (línea 2)', 150),
  city: optionalText('Ciudad', 80),
  zipCode: textField('Código postal')
    .trim()
    .regex(/^$|^[0-9A-Za-z -]{3,10}$/, { error: msg.invalid('Código postal') })
    .nullable()
    .optional(),
  country: optionalText('País', 60),
  footer: optionalText('Pie de factura', 500),
  /** The prefix of the workspace's invoice series when it sells ('' gives 2026-0001); omitted: unchanged. */
  seriesPrefix: seriesPrefixSchema.optional(),
});
export type BillingInfo = z.infer<typeof billingInfo>;
