import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { CircleAlert, Info, LifeBuoy, RotateCw } from 'lucide-react';
import type { BillingOverview, BillingSubscription } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { messageOf } from '@/lib/error-message';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useDropScheduledChange, useNextInvoice, useRenewal } from '../api/plans-api';
import {
  billedUsersOf,
  cancelRenewalText,
  paidPlanNoticeOf,
  periodEndOf,
  planAndIntervalOf,
  plusVat,
  reactivatedText,
  scheduledChangeNoticeOf,
  subscriptionActionsOf,
  subscriptionStatusOf,
} from '../utils/subscription';
import { ChangePlanDialog } from './change-plan-dialog';
import { InvoiceLines } from './invoice-lines';
import { PortalButton } from './portal-button';
import { TestModeBadge } from './test-mode-badge';

type Props = { wid: string; overview: BillingOverview; subscription: BillingSubscription };

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5 px-4 py-3 sm:grid-cols-[11rem_1fr] sm:gap-4">
      <dt className="text-[0.8125rem] text-muted-foreground sm:text-sm">{term}</dt>
      <dd className="text-sm font-medium tabular-nums">{children}</dd>
    </div>
  );
}

/**
 * «Tu suscripción» on Ajustes › Espacio › Plan: the plan bought, its status and period, and — for who may
 * manage it — the users billed, the next payment with its lines, «Cambiar de plan» and the renewal off or on.
 */
export function SubscriptionPanel({ wid, overview, subscription: s }: Props) {
  const actions = subscriptionActionsOf(overview, s);
  const status = subscriptionStatusOf(s);
  const next = useNextInvoice(wid, actions.nextInvoice);
  const renewal = useRenewal(wid);
  const [changing, setChanging] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const period = periodEndOf(s);
  const paid = paidPlanNoticeOf(s);
  const scheduled = scheduledChangeNoticeOf(s);
  const drop = useDropScheduledChange(wid);

  async function dropScheduled() {
    setError(null);
    try {
      const o = await drop.mutateAsync();
      const end = o.subscription?.currentPeriodEnd;
      toast.success(end ? `Cambio anulado: tu plan se renovará tal como está el ${formatDate(end)}.` : 'Cambio anulado.');
    } catch (e) {
      setError(messageOf(e));
    }
  }

  async function reactivate() {
    setError(null);
    try {
      const o = await renewal.mutateAsync('reactivate');
      toast.success(reactivatedText(o.subscription ?? s));
    } catch (e) {
      setError(messageOf(e));
    }
  }

  const askToCancel = () => {
    setError(null);
    setCancelling(true);
  };

  const cancel = async () => {
    setError(null);
    await renewal.mutateAsync('cancel');
    toast.success(
      s.currentPeriodEnd ? `Renovación desactivada: tu plan termina el ${formatDate(s.currentPeriodEnd)}.` : 'Renovación desactivada.',
    );
  };

  return (
    <Card data-testid="subscription" aria-labelledby="subscription-title">
      <CardHeader className="gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle id="subscription-title" className="font-display text-xl tracking-tight">
            Tu suscripción
          </CardTitle>
          {overview.mode === 'test' ? <TestModeBadge /> : null}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <p className="text-lg font-semibold">{planAndIntervalOf(s)}</p>
          <Badge variant={status.tone} data-testid="subscription-status">
            {status.label}
          </Badge>
        </div>
        {s.status === 'past_due' ? (
          <p className="flex items-start gap-2 text-sm text-warning-fg">
            <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            No se ha podido cobrar el último pago: lo volveremos a intentar en los próximos días.
          </p>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-5">
        {paid ? <Alert data-testid="paid-plan">{paid}</Alert> : null}
        {scheduled ? (
          <Alert data-testid="scheduled-change" className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
            <span>{scheduled}</span>
            {actions.change ? (
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="self-start sm:self-auto"
                loading={drop.isPending}
                onClick={() => void dropScheduled()}
              >
                Anular el cambio
              </Button>
            ) : null}
          </Alert>
        ) : null}

        <dl className="divide-y rounded-lg border">
          {period ? <Row term={s.cancelAtPeriodEnd ? 'Fin del plan' : 'Renovación'}>{period}</Row> : null}
          {actions.amounts ? <Row term="Usuarios facturados">{billedUsersOf(s)}</Row> : null}
          {actions.nextInvoice ? (
            <Row term="Próximo pago">
              {next.isPending ? (
                <span className="font-normal text-muted-foreground">Calculando…</span>
              ) : next.isError ? (
                <span className="flex flex-wrap items-center gap-x-3 gap-y-1 font-normal text-destructive">
                  <span role="alert">No se pudo calcular: {messageOf(next.error)}</span>
                  <Button type="button" variant="link" size="none" onClick={() => void next.refetch()}>
                    <RotateCw aria-hidden /> Reintentar
                  </Button>
                </span>
              ) : next.data ? (
                <span data-testid="next-payment">
                  {formatDate(next.data.nextPaymentAt)} · {plusVat(next.data.subtotal)}
                </span>
              ) : (
                <span className="font-normal text-muted-foreground">Sin pagos previstos</span>
              )}
            </Row>
          ) : null}
        </dl>

        {actions.nextInvoice && next.data && next.data.lines.length > 0 ? (
          <div className="grid gap-2">
            <h3 className="text-sm font-medium">Detalle del próximo pago</h3>
            <InvoiceLines preview={next.data} label="Líneas del próximo pago" />
          </div>
        ) : null}

        {actions.note ? (
          <p className="flex items-start gap-2 text-sm text-muted-foreground" data-testid="subscription-note">
            <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
            <span>{actions.note}</span>
          </p>
        ) : null}

        {error ? <Alert variant="error">{error}</Alert> : null}

        <div className="flex flex-col gap-3 border-t pt-5 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between">
          {actions.change || actions.cancel || actions.reactivate ? (
            <div className="flex flex-col gap-2 sm:flex-row">
              {actions.change ? (
                <Button type="button" onClick={() => setChanging(true)}>
                  Cambiar de plan
                </Button>
              ) : null}
              {/* One button for both, so focus stays on it when the renewal goes off or on. */}
              {actions.cancel || actions.reactivate ? (
                <Button
                  type="button"
                  variant={actions.reactivate ? 'default' : 'outline'}
                  loading={renewal.isPending && renewal.variables === 'reactivate'}
                  onClick={actions.reactivate ? () => void reactivate() : askToCancel}
                >
                  {actions.reactivate ? 'Reactivar renovación' : 'Desactivar renovación'}
                </Button>
              ) : null}
              {actions.amounts ? (
                <PortalButton wid={wid} onOpen={() => setError(null)} onError={setError}>
                  Tarjetas y recibos
                </PortalButton>
              ) : null}
            </div>
          ) : null}
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
            <LifeBuoy className="size-4 shrink-0" aria-hidden />
            <Link to="/plans" className="font-medium text-primary underline underline-offset-2">
              Ver todos los planes
            </Link>
            <span aria-hidden className="hidden sm:inline">
              ·
            </span>
            <span>
              ¿Dudas?{' '}
              <Link to="/settings/help" className="font-medium text-primary underline underline-offset-2">
                Escríbenos
              </Link>
            </span>
          </p>
        </div>
      </CardContent>

      {changing ? <ChangePlanDialog wid={wid} subscription={s} onClose={() => setChanging(false)} /> : null}
      <ConfirmDialog
        open={cancelling}
        onOpenChange={setCancelling}
        title="¿Desactivar la renovación?"
        description={cancelRenewalText(s)}
        confirmLabel="Desactivar renovación"
        cancelLabel="Mantener la renovación"
        onConfirm={cancel}
      />
    </Card>
  );
}
