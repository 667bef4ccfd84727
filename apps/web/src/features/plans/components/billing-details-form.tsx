import { useForm, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  BILLING_COUNTRIES,
  billingDetailsBody,
  type BillingDetails,
  type BillingDetailsBody,
  type BillingDetailsResponse,
} from '@divan/core';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { useSaveForm } from '@/lib/use-save-form';
import { useSaveBillingDetails } from '../api/payments-api';
import { asksVatId, BILLING_DETAILS_FIELDS, billingDetailsValues, paymentsTexts, taxIdLabelOf } from '../utils/billing-details';

export type BillingDetailsForm = UseFormReturn<BillingDetailsBody, unknown, BillingDetails>;

const countries = BILLING_COUNTRIES.map((c) => ({ value: c.code, label: c.name }));

/**
 * Who Diván invoices for the workspace's plan, as a form: core's `billingDetailsBody` checks it here (the
 * same Spanish messages as the server), PUT …/billing/details saves it, and a server's field errors go next
 * to their fields. One form for Ajustes › Pagos and for the dialog /plans opens before a first Checkout.
 */
export function useBillingDetailsForm(
  wid: string,
  details: BillingDetailsResponse['details'] | undefined,
  { onSaved }: { onSaved?: (saved: BillingDetailsResponse) => void } = {},
) {
  const save = useSaveBillingDetails(wid);
  const form: BillingDetailsForm = useForm<BillingDetailsBody, unknown, BillingDetails>({
    resolver: zodResolver(billingDetailsBody),
    values: billingDetailsValues(details),
  });
  const { onSubmit, formError } = useSaveForm(form, {
    save: save.mutateAsync,
    success: paymentsTexts.saved,
    onSaved,
    fields: BILLING_DETAILS_FIELDS,
  });
  return { form, onSubmit, formError };
}

/** The fields, in a grid of two columns from a tablet up (one on a phone). */
export function BillingDetailsFields({ form }: { form: BillingDetailsForm }) {
  const { errors } = form.formState;
  const country = form.watch('country');
  const spain = country === 'ES';
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <Field label="Nombre o razón social" error={errors.name?.message} className="sm:col-span-2">
        <Input autoComplete="name" {...form.register('name')} />
      </Field>
      <Field label="País" error={errors.country?.message}>
        <NativeSelect options={countries} autoComplete="country" {...form.register('country')} />
      </Field>
      <Field
        label={taxIdLabelOf(country)}
        error={errors.taxId?.message}
        hint={spain ? 'Con su letra. A este NIF irán las facturas de Diván.' : undefined}
      >
        <Input autoCapitalize="characters" spellCheck={false} {...form.register('taxId')} />
      </Field>
      {asksVatId(country) ? (
        <Field
          label="NIF-IVA (opcional)"
          error={errors.vatId?.message}
          hint="Si facturamos a una empresa o profesional con NIF-IVA intracomunitario: con el prefijo del país. La factura irá sin IVA (inversión del sujeto pasivo)."
          className="sm:col-span-2"
        >
          {/* Gone with a country outside the EU: nothing of it is sent then. */}
          <Input autoCapitalize="characters" spellCheck={false} {...form.register('vatId', { shouldUnregister: true })} />
        </Field>
      ) : null}
      <Field label="Dirección" error={errors.line1?.message} className="sm:col-span-2">
        <Input autoComplete="address-line1" {...form.register('line1')} />
      </Field>
      <Field label="Código postal" error={errors.postalCode?.message}>
        <Input inputMode={spain ? 'numeric' : undefined} autoComplete="postal-code" {...form.register('postalCode')} />
      </Field>
      <Field label="Ciudad" error={errors.city?.message}>
        <Input autoComplete="address-level2" {...form.register('city')} />
      </Field>
      <Field
        label="Email para las facturas (opcional)"
        error={errors.email?.message}
        hint="Si lo dejas vacío, las facturas de Diván llegan al email de quien creó el espacio."
        className="sm:col-span-2"
      >
        <Input type="email" autoComplete="email" {...form.register('email')} />
      </Field>
    </div>
  );
}
