import { Link } from 'react-router';
import { Check, LifeBuoy, Minus } from 'lucide-react';
import { PLAN_LABELS, type Workspace } from '@divan/core';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeading } from '@/components/ui/page-heading';
import { PageSpinner, Spinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/ui/states';
import { usePermits } from '@/lib/permits';
import { usePageTitle } from '@/lib/use-page-title';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';
import { useBillingOverview } from '../api/plans-api';
import { SubscriptionPanel } from '../components/subscription-panel';
import { isStandingSubscription } from '../utils/plan-offer';
import { planSummaryOf } from '../utils/plan-summary';
import { planInForceOf } from '../utils/subscription';

function featureRows(ws: Workspace): { label: string; value: string | boolean }[] {
  const f = ws.features;
  return [
    { label: 'Pacientes activos por terapeuta', value: f.activePatientLimit === null ? 'Ilimitados' : String(f.activePatientLimit) },
    { label: 'Recordatorios por sesión', value: String(f.sessionReminders) },
    { label: 'Facturas automáticas y por lotes', value: f.canCreateInvoiceBatch },
    { label: 'Tu agenda de reservas en tu web', value: f.canEmbedPublicServices },
    { label: 'Plazas (miembros e invitaciones)', value: String(ws.maxSeats) },
  ];
}

function FeatureTable({ ws }: { ws: Workspace }) {
  return (
    <dl className="divide-y rounded-lg border">
      {featureRows(ws).map(({ label, value }) => (
        <div key={label} className="flex items-center justify-between gap-4 px-4 py-2.5 text-sm">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="font-medium">
            {typeof value === 'string' ? (
              value
            ) : value ? (
              <>
                <Check className="inline size-4 text-success" aria-hidden /> <span className="sr-only">Sí</span>
              </>
            ) : (
              <>
                <Minus className="inline size-4 text-muted-foreground" aria-hidden /> <span className="sr-only">No</span>
              </>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Ajustes › Espacio › Plan (/settings/workspace/plan): the workspace's plan and what it includes; with a plan
 * bought, «Tu suscripción» (its status, next payment, change, renewal off or on), else the way to /plans.
 * Here, not in features/workspaces: it renders the plans feature's panel, and features do not import each other.
 */
export function WorkspacePlanRoute() {
  usePageTitle('Plan del espacio');
  const ws = useCurrentWorkspace();
  if (!isRealWorkspace(ws.id)) return <PageSpinner />;
  // A switch of workspace starts the page afresh (its dialogs, its errors).
  return <WorkspacePlan key={ws.id} ws={ws} />;
}

function WorkspacePlan({ ws }: { ws: Workspace }) {
  const permits = usePermits();
  const overview = useBillingOverview(ws.id);
  const billing = overview.data;
  const subscription = isStandingSubscription(billing?.subscription) ? billing.subscription : null;

  return (
    <div className="grid gap-6">
      <PageHeading title="Plan" workspace={ws.name} />
      {overview.isPending ? (
        <div className="grid min-h-40 place-items-center">
          <Spinner label="Cargando el plan…" />
        </div>
      ) : billing && subscription ? (
        <>
          <SubscriptionPanel wid={ws.id} overview={billing} subscription={subscription} />
          <Card>
            <CardHeader>
              <CardTitle className="text-base">Incluye ahora</CardTitle>
              <CardDescription>Lo que tu espacio tiene con {PLAN_LABELS[ws.plan.id ?? planInForceOf(subscription)]}.</CardDescription>
            </CardHeader>
            <CardContent>
              <FeatureTable ws={ws} />
            </CardContent>
          </Card>
        </>
      ) : (
        <>
          {overview.isError ? (
            <LoadError what="el estado de tu suscripción" error={overview.error} onRetry={() => void overview.refetch()} />
          ) : null}
          <NoSubscription ws={ws} decides={billing?.canManage ?? (ws.isOwner || permits.can('update', 'workspace_billing'))} />
        </>
      )}
    </div>
  );
}

/** Without a plan bought: the plan (or the trial) and what it includes, and the card to /plans. */
function NoSubscription({ ws, decides }: { ws: Workspace; decides: boolean }) {
  const summary = planSummaryOf(ws);
  return (
    <>
      <Card>
        <CardHeader>
          <div className="flex flex-wrap items-center gap-2">
            <CardTitle className="text-xl">{summary.name}</CardTitle>
            {summary.badge ? <Badge variant={summary.badge === 'En prueba' ? 'accent' : 'warning'}>{summary.badge}</Badge> : null}
          </div>
          <CardDescription>{summary.status}</CardDescription>
        </CardHeader>
        <CardContent>
          <h3 className="mb-2 text-sm font-medium">Incluye ahora</h3>
          <FeatureTable ws={ws} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="font-display text-xl tracking-tight">Planes</CardTitle>
          <CardDescription className="max-w-prose">
            {decides
              ? 'Compara Basic, Premium y Team con el precio para tu espacio, y contrata al mes o al año con tarjeta, en una página de pago segura.'
              : `Los cambios de plan los decide ${ws.owner.firstName || 'quien administra el espacio'}. Puedes ver los planes, qué incluye cada uno y su precio.`}
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap items-center justify-between gap-3">
          <Button asChild variant={decides ? 'default' : 'outline'} className="w-full sm:w-auto">
            <Link to="/plans">{decides ? 'Ver planes y contratar' : 'Ver planes'}</Link>
          </Button>
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <LifeBuoy className="size-4 shrink-0" aria-hidden />
            <span>
              ¿Dudas sobre tu plan?{' '}
              <Link to="/settings/help" className="font-medium text-primary underline underline-offset-2">
                Escríbenos
              </Link>
            </span>
          </p>
        </CardContent>
      </Card>
    </>
  );
}

export { WorkspacePlanRoute as Component };
