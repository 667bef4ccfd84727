import { useState } from 'react';
import { BadgeCheck, CircleAlert, Info } from 'lucide-react';
import type { BillingDetailsResponse, BillingOverview, Workspace } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { useConfirmDiscard } from '@/components/ui/confirm-discard';
import { NoAccess } from '@/components/ui/no-access';
import { PageHeading } from '@/components/ui/page-heading';
import { PageSpinner, Spinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/ui/states';
import { cn } from '@/lib/cn';
import { usePageTitle } from '@/lib/use-page-title';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';
import { useBillingDetails } from '../api/payments-api';
import { useBillingOverview } from '../api/plans-api';
import { BillingDetailsFields, useBillingDetailsForm } from '../components/billing-details-form';
import { DivanInvoices } from '../components/divan-invoices';
import { PortalButton } from '../components/portal-button';
import { TestModeBadge } from '../components/test-mode-badge';
import { paymentsTexts, taxLineOf, vatCheckLineOf } from '../utils/billing-details';

/**
 * Ajustes › Pagos (/settings/payments): what the workspace pays Diván for its plan — the cards (on the
 * provider's portal), who Diván invoices, and Diván's invoices with their PDF. For who manages the plan
 * (the overview's `canManage`); anyone else is told whose page this is, and nothing more is asked.
 */
export function PaymentsSettingsRoute() {
  usePageTitle('Pagos', 'Ajustes');
  const ws = useCurrentWorkspace();
  if (!isRealWorkspace(ws.id)) return <PageSpinner />;
  // A switch of workspace starts the page afresh (its form, its errors).
  return <Payments key={ws.id} ws={ws} />;
}

function Payments({ ws }: { ws: Workspace }) {
  const overview = useBillingOverview(ws.id);
  const billing = overview.data;
  return (
    <div className="grid gap-6">
      <PageHeading title="Pagos" workspace={ws.name} actions={billing?.canManage && billing.mode === 'test' ? <TestModeBadge /> : null}>
        Lo que tu espacio paga a Diván por su plan: las tarjetas, a quién facturamos y nuestras facturas.
      </PageHeading>
      {overview.isPending ? (
        <div className="grid min-h-40 place-items-center">
          <Spinner label="Cargando los pagos…" />
        </div>
      ) : overview.isError ? (
        <LoadError what="los pagos de tu espacio" error={overview.error} onRetry={() => void overview.refetch()} />
      ) : !overview.data.canManage ? (
        <NoAccess title={paymentsTexts.notManager}>
          {`Las tarjetas, los datos de facturación y las facturas de Diván los gestiona ${ws.owner.firstName || 'quien administra el espacio'} o quien tenga permiso sobre la facturación del espacio.`}
        </NoAccess>
      ) : (
        <>
          <Cards wid={ws.id} overview={overview.data} />
          <Details wid={ws.id} />
          <Card aria-labelledby="divan-invoices-title">
            <CardHeader>
              <CardTitle id="divan-invoices-title">Facturas de Diván</CardTitle>
              <CardDescription>Las que Diván emite a tu espacio por el plan, de la más reciente a la más antigua.</CardDescription>
            </CardHeader>
            <CardContent>
              <DivanInvoices wid={ws.id} />
            </CardContent>
          </Card>
        </>
      )}
    </div>
  );
}

/** «Métodos de pago»: the cards are on the provider's portal (the same button as Ajustes › Plan's). */
function Cards({ wid, overview }: { wid: string; overview: BillingOverview }) {
  const [error, setError] = useState<string | null>(null);
  // The provider has no customer before a first Checkout: nothing to manage yet.
  const bought = overview.subscription !== null;
  return (
    <Card aria-labelledby="payment-methods-title">
      <CardHeader>
        <CardTitle id="payment-methods-title">Métodos de pago</CardTitle>
        <CardDescription>
          Las tarjetas con las que se paga el plan se gestionan en la página segura de nuestro proveedor de pagos: Diván no guarda sus
          datos.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {error ? <Alert variant="error">{error}</Alert> : null}
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-4">
          <PortalButton
            wid={wid}
            className="w-full sm:w-auto"
            disabled={!bought}
            aria-describedby={bought ? undefined : 'portal-unavailable'}
            onOpen={() => setError(null)}
            onError={setError}
          >
            Gestionar tarjetas
          </PortalButton>
          {bought ? null : (
            <p id="portal-unavailable" className="text-sm text-muted-foreground">
              {paymentsTexts.noCustomer}
            </p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

/** «Datos de facturación de Diván»: the form, and under it how Diván's invoices to these data are taxed. */
function Details({ wid }: { wid: string }) {
  const details = useBillingDetails(wid);
  return (
    <Card aria-labelledby="billing-details-title">
      <CardHeader>
        <CardTitle id="billing-details-title">Datos de facturación de Diván</CardTitle>
        <CardDescription>A este nombre, NIF y dirección emite Diván las facturas del plan.</CardDescription>
      </CardHeader>
      {details.isPending ? (
        <CardContent className="grid min-h-32 place-items-center">
          <Spinner label="Cargando los datos de facturación…" />
        </CardContent>
      ) : details.isError ? (
        <CardContent>
          <LoadError what="los datos de facturación" error={details.error} onRetry={() => void details.refetch()} />
        </CardContent>
      ) : (
        <DetailsForm wid={wid} saved={details.data} />
      )}
    </Card>
  );
}

function DetailsForm({ wid, saved }: { wid: string; saved: BillingDetailsResponse }) {
  const { form, onSubmit, formError } = useBillingDetailsForm(wid, saved.details);
  const { isDirty, isSubmitting } = form.formState;
  const discard = useConfirmDiscard(isDirty);
  const tax = taxLineOf(saved.tax);
  const vat = vatCheckLineOf(saved.vatCheck);
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Datos de facturación de Diván">
      <CardContent className="grid gap-5">
        {formError ? <Alert variant="error">{formError}</Alert> : null}
        <BillingDetailsFields form={form} />
        {tax ? (
          <p className="flex items-start gap-2 text-sm text-muted-foreground" data-testid="divan-tax">
            <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
            <span>{tax}</span>
          </p>
        ) : null}
        {vat ? (
          <p
            className={cn(
              'flex items-start gap-2 text-sm',
              vat.tone === 'warning' ? 'text-warning-fg' : vat.tone === 'ok' ? 'text-foreground' : 'text-muted-foreground',
            )}
            data-testid="vat-check"
          >
            {vat.tone === 'warning' ? (
              <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            ) : vat.tone === 'ok' ? (
              <BadgeCheck className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
            ) : (
              <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
            )}
            <span>{vat.text}</span>
          </p>
        ) : null}
      </CardContent>
      <CardFooter>
        <Button type="button" variant="ghost" disabled={!isDirty || isSubmitting} onClick={() => discard.confirm(() => form.reset())}>
          Descartar
        </Button>
        {/* Nothing saved yet: saving is how the defaults (Spain) are said to be right. */}
        <Button type="submit" loading={isSubmitting} disabled={!isDirty && saved.details !== null}>
          Guardar datos
        </Button>
      </CardFooter>
      {discard.dialog}
    </form>
  );
}

export { PaymentsSettingsRoute as Component };
