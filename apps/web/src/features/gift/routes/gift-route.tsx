import { useEffect, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { CalendarClock, FlaskConical, Gift, Mail, ReceiptText, Sparkles, X } from 'lucide-react';
import type { z } from 'zod';
import { GIFT_MESSAGE_MAX, GIFT_MONTHS, GIFT_VALID_MONTHS, giftCheckoutBody, giftPriceOf, type Workspace } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { NoAccess } from '@/components/ui/no-access';
import { PageSpinner, Spinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/ui/states';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatCurrency } from '@/lib/format';
import { applyApiError } from '@/lib/form-errors';
import { usePageTitle } from '@/lib/use-page-title';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';
import { goToCheckout, useGiftBilling, useStartGiftCheckout } from '../api/gift-api';
import { MonthsPicker } from '../components/months-picker';
import { monthsLabel } from '../utils/gift-code';
import { draftOf, keepDraft, type GiftDraft } from '../utils/gift-storage';

type FormIn = z.input<typeof giftCheckoutBody>;
type FormOut = z.output<typeof giftCheckoutBody>;
const FIELDS = ['months', 'recipientName', 'recipientEmail', 'message'] as const;

export const giftTexts = {
  notManager: 'Solo quien gestiona el plan del espacio puede regalar Diván',
  unavailable: 'Ahora mismo no se pueden comprar regalos. Inténtalo más tarde.',
  canceled: 'Has cancelado el pago: no se ha cobrado nada. Lo que escribiste sigue aquí.',
  testMode: 'Modo de prueba: no se cobra nada real',
} as const;

/**
 * /gift, «Regalar Diván»: months of Premium for a colleague, paid by this workspace (Diván's invoice, with
 * IVA, to its billing data) through the provider's Checkout. For who manages the workspace's billing.
 */
export function GiftRoute() {
  usePageTitle('Regalar Diván');
  const ws = useCurrentWorkspace();
  if (!isRealWorkspace(ws.id)) return <PageSpinner />;
  // A switch of workspace starts the page afresh (its draft is that workspace's).
  return <GiftPage key={ws.id} ws={ws} />;
}

function GiftPage({ ws }: { ws: Workspace }) {
  const overview = useGiftBilling(ws.id);
  const billing = overview.data;
  const [params, setParams] = useSearchParams();

  const dismissCanceled = () =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete('canceled');
        return next;
      },
      { replace: true },
    );

  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <p className="text-[0.8125rem] font-medium text-muted-foreground">{ws.name}</p>
          <h1 className="font-display text-3xl font-semibold tracking-tight">Regalar Diván</h1>
          <p className="max-w-prose text-[0.9375rem] leading-relaxed text-muted-foreground">
            Regala a un colega meses de Diván Premium: lo canjea en su espacio de trabajo y tiene todo Premium durante ese tiempo, sin
            tarjeta.
          </p>
        </div>
        {billing?.canManage && billing.mode === 'test' ? (
          <span
            data-testid="test-mode"
            className="inline-flex items-center gap-1.5 rounded-full bg-warning-bg px-3 py-1 text-[0.8125rem] font-medium text-warning-fg ring-1 ring-inset ring-warning-fg/20"
          >
            <FlaskConical className="size-4" aria-hidden />
            {giftTexts.testMode}
          </span>
        ) : null}
      </div>

      {params.get('canceled') ? (
        <Alert className="flex items-start gap-3">
          <span className="flex-1">{giftTexts.canceled}</span>
          <button
            type="button"
            onClick={dismissCanceled}
            className="-m-1 rounded-md p-1 opacity-80 hover:bg-black/5 hover:opacity-100 dark:hover:bg-white/10"
            aria-label="Ocultar aviso"
          >
            <X className="size-4" aria-hidden />
          </button>
        </Alert>
      ) : null}

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_19rem]">
        <div className="grid gap-6">
          {overview.isPending ? (
            <Card>
              <CardContent className="grid min-h-48 place-items-center">
                <Spinner label="Cargando…" />
              </CardContent>
            </Card>
          ) : overview.isError ? (
            <LoadError what="si puedes comprar regalos en este espacio" error={overview.error} onRetry={() => void overview.refetch()} />
          ) : !overview.data.canManage ? (
            <NoAccess title={giftTexts.notManager}>
              {`Los regalos los paga el espacio y su factura va a sus datos de facturación: los compra ${ws.owner.firstName || 'quien lo administra'} o quien tenga permiso sobre la facturación del espacio. Si tienes tu propio espacio, ábrelo para regalar desde allí.`}
            </NoAccess>
          ) : !overview.data.available ? (
            <Alert>{giftTexts.unavailable}</Alert>
          ) : (
            <GiftForm ws={ws} />
          )}
        </div>
        <HowItWorks ws={ws} />
      </div>
    </div>
  );
}

const validMonths = (m: number): m is FormIn['months'] => (GIFT_MONTHS as readonly number[]).includes(m);

function GiftForm({ ws }: { ws: Workspace }) {
  const checkout = useStartGiftCheckout(ws.id);
  const monthsId = useId();
  const [formError, setFormError] = useState<string | null>(null);
  const [missingDetails, setMissingDetails] = useState<string | null>(null);
  // Leaving for Checkout: the button keeps spinning until the browser has gone.
  const [leaving, setLeaving] = useState(false);
  const [draft] = useState(() => draftOf(ws.id));
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(giftCheckoutBody),
    defaultValues: {
      months: draft && validMonths(draft.months) ? draft.months : 1,
      recipientName: draft?.recipientName ?? '',
      recipientEmail: draft?.recipientEmail ?? '',
      message: draft?.message ?? '',
    },
  });
  const { errors, isSubmitting } = form.formState;
  const months = form.watch('months');
  const message = form.watch('message') ?? '';

  // What is typed is kept in this tab: back from Ajustes › Pagos or from a canceled payment, it is still here.
  useEffect(() => {
    const sub = form.watch((v) =>
      keepDraft(ws.id, {
        months: Number(v.months),
        recipientName: v.recipientName ?? '',
        recipientEmail: v.recipientEmail ?? '',
        message: v.message ?? '',
      } satisfies GiftDraft),
    );
    return () => sub.unsubscribe();
  }, [form, ws.id]);

  // Back from Checkout through the browser's cache: the page is as it was left, button spinning; start again.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) setLeaving(false);
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    setMissingDetails(null);
    const body = {
      months: values.months,
      ...(values.recipientName ? { recipientName: values.recipientName } : {}),
      ...(values.recipientEmail ? { recipientEmail: values.recipientEmail } : {}),
      ...(values.message ? { message: values.message } : {}),
    };
    try {
      const { url } = await checkout.mutateAsync(body);
      setLeaving(true);
      goToCheckout(url);
    } catch (error) {
      // Diván's invoice needs the workspace's billing data: entered in Ajustes › Pagos (the draft waits here).
      if (isApiError(error) && error.code === 'billing_details_missing') return setMissingDetails(error.message);
      setFormError(applyApiError(error, form.setError, {}, FIELDS));
    }
  });

  const pending = isSubmitting || leaving;
  const count = message.length;
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Regalar Diván" className="grid gap-6">
      <Card>
        <CardContent className="grid gap-6">
          <fieldset className="grid gap-3">
            <legend id={monthsId} className="mb-3 text-base font-semibold">
              ¿Cuántos meses de Premium?
            </legend>
            <Controller
              control={form.control}
              name="months"
              render={({ field }) => (
                <MonthsPicker
                  name={field.name}
                  value={field.value}
                  onChange={(m) => validMonths(m) && field.onChange(m)}
                  labelledBy={monthsId}
                />
              )}
            />
            {errors.months?.message ? (
              <p role="alert" className="text-[0.8125rem] font-medium text-destructive">
                {errors.months.message}
              </p>
            ) : null}
          </fieldset>

          <fieldset className="grid gap-4">
            <legend className="mb-1 text-base font-semibold">Para quién</legend>
            <p className="-mt-2 text-sm text-muted-foreground">Opcional: si no lo pones, te damos el código y se lo pasas tú.</p>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Nombre de tu colega" error={errors.recipientName?.message}>
                <Input autoComplete="off" maxLength={100} placeholder="Por ejemplo: Marta" {...form.register('recipientName')} />
              </Field>
              <Field
                label="Su email"
                error={errors.recipientEmail?.message}
                hint="Le enviaremos el código por email. A ti también te llega."
              >
                <Input
                  type="email"
                  inputMode="email"
                  autoComplete="off"
                  spellCheck={false}
                  placeholder="marta@ejemplo.com"
                  {...form.register('recipientEmail')}
                />
              </Field>
            </div>
            <Field
              label="Mensaje"
              error={errors.message?.message}
              hint="Opcional: lo verá junto al regalo."
              aside={
                <span
                  className={cn(
                    'text-[0.8125rem] tabular-nums text-muted-foreground',
                    count > GIFT_MESSAGE_MAX && 'font-medium text-destructive',
                  )}
                  aria-live="polite"
                >
                  {count}/{GIFT_MESSAGE_MAX}
                </span>
              }
            >
              <Textarea rows={4} placeholder="¡Para que pruebes Diván con calma!" {...form.register('message')} />
            </Field>
          </fieldset>
        </CardContent>
        <div className="grid gap-4 rounded-b-xl border-t bg-muted/40 px-5 py-4 sm:px-6">
          {missingDetails ? (
            <Alert variant="error">
              <p>{missingDetails}</p>
              <p className="mt-1">
                <Link to="/settings/payments">Completar los datos en Ajustes › Pagos</Link>. Lo que has escrito aquí te esperará al volver.
              </p>
            </Alert>
          ) : null}
          {formError ? <Alert variant="error">{formError}</Alert> : null}
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <p className="grid gap-0.5" data-testid="gift-total">
              <span className="text-[0.8125rem] text-muted-foreground">
                {validMonths(months) ? monthsLabel(months) : ''} de Premium para una persona
              </span>
              <span className="tabular-nums">
                <span className="font-display text-2xl font-semibold">{formatCurrency(giftPriceOf(months))}</span>
                <span className="text-sm text-muted-foreground"> + IVA</span>
              </span>
            </p>
            <Button type="submit" size="lg" loading={pending}>
              Continuar al pago
            </Button>
          </div>
        </div>
      </Card>
    </form>
  );
}

function HowItWorks({ ws }: { ws: Workspace }) {
  const steps = [
    {
      icon: Gift,
      text: 'Tu colega lo canjea en su espacio de trabajo: los meses se suman a su prueba gratis, con todo Premium; si ya paga un plan, lo que vale se descuenta de su próxima factura.',
    },
    { icon: Mail, text: 'Al pagar te mostramos el código y te lo enviamos por email; a tu colega también, si pones su email.' },
    {
      icon: CalendarClock,
      text: `Vale ${GIFT_VALID_MONTHS} meses desde la compra, una sola vez.`,
    },
    {
      icon: ReceiptText,
      text: `Precios sin IVA. El IVA se calcula con los datos de facturación de «${ws.name}»: a ellos va la factura de Diván.`,
    },
  ];
  return (
    <aside aria-labelledby="gift-how" className="grid gap-3 rounded-xl border bg-card p-5 text-sm shadow-xs">
      <h2 id="gift-how" className="flex items-center gap-2 text-base font-semibold">
        <Sparkles className="size-4 text-primary" aria-hidden />
        Cómo funciona
      </h2>
      <ul className="grid gap-3">
        {steps.map(({ icon: Icon, text }) => (
          <li key={text} className="flex items-start gap-3 leading-relaxed">
            <Icon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
            <span>{text}</span>
          </li>
        ))}
      </ul>
    </aside>
  );
}

export { GiftRoute as Component };
