import { useForm } from 'react-hook-form';
import { Navigate, useRoutes } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import {
  INVOICE_WITHHOLDING_RATE_LABELS,
  INVOICE_WITHHOLDING_RATES,
  nextInvoiceText,
  therapistBillingBody,
  type TherapistBilling,
} from '@divan/core';
import { AddressFields } from '@/components/address-fields';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { PageSpinner } from '@/components/ui/spinner';
import { useConfirmDiscard } from '@/components/ui/confirm-discard';
import { PARTY_FIELDS, partyValues } from '@/lib/address-form';
import { cn } from '@/lib/cn';
import { usePageTitle } from '@/lib/use-page-title';
import { useSaveForm } from '@/lib/use-save-form';
import { useMyBilling, useUpdateMyBilling } from '../api/support-api';
import { LoadError } from '@/components/ui/states';
import { AutoInvoiceCard } from './auto-invoice-card';
import { useMyInvoiceSeries } from './invoice-settings-api';
import { PaymentAccountCard } from '../payments/components/payment-account-card';
import { StripeDashboardRoute, StripeOnboardingRoute } from '../payments/routes/stripe-return';

const fields = therapistBillingBody.shape;
/** The shared rules; the withholding travels as a number and is chosen with radio buttons (text). */
const billingForm = z.object({
  fullName: fields.fullName,
  taxId: fields.taxId,
  line1: fields.line1,
  line2: fields.line2,
  city: fields.city,
  zipCode: fields.zipCode,
  country: fields.country,
  footer: fields.footer,
  seriesPrefix: fields.seriesPrefix,
  withholdingRate: z.enum(['15', '7']).transform((v) => (v === '7' ? 7 : 15) as 7 | 15),
});
type FormIn = z.input<typeof billingForm>;
type FormOut = z.output<typeof billingForm>;
const names = [...PARTY_FIELDS, 'footer', 'seriesPrefix', 'withholdingRate'] as const;

const toForm = (b: TherapistBilling): FormIn => ({
  ...partyValues(b),
  footer: b.footer ?? '',
  seriesPrefix: b.seriesPrefix ?? '',
  withholdingRate: String(b.withholdingRate) as '15' | '7',
});

export function BillingSettingsRoute() {
  usePageTitle('Facturación', 'Ajustes');
  const billing = useMyBilling();
  if (billing.isError && !billing.data)
    return <LoadError error={billing.error} onRetry={() => void billing.refetch()} what="tus datos de facturación" />;
  if (!billing.data) return <PageSpinner />;
  return (
    <div className="grid gap-6">
      <BillingForm billing={billing.data} />
      <PaymentAccountCard
        holder={ME}
        canEdit
        description="Tu cuenta, para las facturas que emites tú. Las del espacio se cobran con la cuenta del espacio (Ajustes del espacio › Facturación)."
      />
      <AutoInvoiceCard />
    </div>
  );
}

function BillingForm({ billing }: { billing: TherapistBilling }) {
  const update = useUpdateMyBilling();
  const form = useForm<FormIn, unknown, FormOut>({ resolver: zodResolver(billingForm), values: toForm(billing) });
  const { errors, isDirty, isSubmitting } = form.formState;
  // Registers the typing with the shell's guard (leaving asks first) and asks before «Descartar».
  const discard = useConfirmDiscard(isDirty);
  const { onSubmit, formError } = useSaveForm(form, { save: update.mutateAsync, success: 'Datos de facturación guardados', fields: names });
  const rate = form.watch('withholdingRate');
  // The next number from the series' counter (after 2026-0001, 2026-0002), for the prefix being typed.
  const series = useMyInvoiceSeries();
  const next = series.data ? nextInvoiceText(form.watch('seriesPrefix') ?? '', series.data, 'mine') : null;

  return (
    <form onSubmit={onSubmit} noValidate>
      <Card>
        <CardHeader>
          <CardTitle>Datos de facturación</CardTitle>
          <CardDescription>Aparecen como emisor en tus facturas. Para emitir hacen falta, al menos, tu nombre y tu NIF.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5 sm:grid-cols-2">
          {formError ? (
            <Alert variant="error" className="sm:col-span-2">
              {formError}
            </Alert>
          ) : null}
          <Field label="Nombre completo" error={errors.fullName?.message}>
            <Input autoComplete="name" {...form.register('fullName')} />
          </Field>
          <Field label="NIF" error={errors.taxId?.message} hint="DNI o NIE con su letra.">
            <Input autoCapitalize="characters" {...form.register('taxId')} />
          </Field>
          <AddressFields input={(n) => form.register(n)} error={(n) => errors[n]?.message} autofill />
          <Field
            label="Prefijo de serie"
            error={errors.seriesPrefix?.message}
            hint={`${next ?? 'Tu próxima factura será la …'} Cambiarlo empieza una serie nueva, también sin saltos.`}
          >
            <Input autoCapitalize="characters" maxLength={10} placeholder="Sin prefijo" {...form.register('seriesPrefix')} />
          </Field>
          <fieldset className="grid gap-2 sm:col-span-2">
            <legend className="mb-1 text-sm font-medium">Retención de IRPF</legend>
            <p className="text-[0.8125rem] text-muted-foreground">
              Solo se aplica cuando factura a una empresa, un profesional o una aseguradora; nunca a un particular.
            </p>
            <div className="grid gap-2 sm:grid-cols-2">
              {INVOICE_WITHHOLDING_RATES.map((r) => (
                <label
                  key={r}
                  className={cn(
                    'flex cursor-pointer items-start gap-3 rounded-lg border p-3 text-sm',
                    rate === String(r) && 'border-primary/50 bg-accent/40',
                  )}
                >
                  <input
                    type="radio"
                    value={String(r)}
                    className="mt-0.5 accent-[var(--color-primary)]"
                    {...form.register('withholdingRate')}
                  />
                  <span>{INVOICE_WITHHOLDING_RATE_LABELS[r]}</span>
                </label>
              ))}
            </div>
            {errors.withholdingRate?.message ? (
              <p className="text-[0.8125rem] font-medium text-destructive">{errors.withholdingRate.message}</p>
            ) : null}
          </fieldset>
          <Field
            label="Pie de factura"
            error={errors.footer?.message}
            className="sm:col-span-2"
            hint="Lo que se imprime al final de cada factura nueva: forma de pago, IBAN…"
          >
            <Textarea rows={4} {...form.register('footer')} />
          </Field>
        </CardContent>
        <CardFooter>
          <Button type="button" variant="ghost" disabled={!isDirty || isSubmitting} onClick={() => discard.confirm(() => form.reset())}>
            Descartar
          </Button>
          <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
            Guardar cambios
          </Button>
        </CardFooter>
      </Card>
      {discard.dialog}
    </form>
  );
}

const ME = { kind: 'me' } as const;

/**
 * /settings/billing/*: the page, and where Stripe sends the therapist back (stripe-onboarding) or the
 * dashboard opens from (stripe-dashboard), as descendant routes: nothing added to the app's route table.
 */
export function BillingSettingsRoutes() {
  return useRoutes([
    { index: true, element: <BillingSettingsRoute /> },
    { path: 'stripe-onboarding', element: <StripeOnboardingRoute /> },
    { path: 'stripe-dashboard', element: <StripeDashboardRoute /> },
    { path: '*', element: <Navigate to="/404" replace /> },
  ]);
}

export { BillingSettingsRoutes as Component };
