import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { Gem, Mail, X } from 'lucide-react';
import { PLAN_IDS, type BillingInterval, type PlanId } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { cn } from '@/lib/cn';
import { PageSpinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/ui/states';
import { isApiError } from '@/lib/api-client';
import { messageOf } from '@/lib/error-message';
import { usePageTitle } from '@/lib/use-page-title';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';
import { goToCheckout, useBillingOverview, useStartCheckout, useSupportContact } from '../api/plans-api';
import { IntervalToggle } from '../components/interval-toggle';
import { PlanCard } from '../components/plan-card';
import { cardActionOf, estimateOf, isStandingSubscription, planStandingOf, planTexts } from '../utils/plan-offer';
import { TestModeBadge } from '../components/test-mode-badge';

// Its form (react-hook-form, the dialog) loads when someone asks for Team's price.
const TeamContactDialog = lazy(() => import('../components/team-contact-dialog').then((m) => ({ default: m.TeamContactDialog })));
// The billing data's form, when a first Checkout finds none (409 billing_details_missing).
const BillingDetailsDialog = lazy(() => import('../components/billing-details-dialog').then((m) => ({ default: m.BillingDetailsDialog })));

/** /plans: Basic, Premium and Team side by side, the workspace's own marked, and Checkout for the first two. */
export function PlansRoute() {
  usePageTitle('Planes');
  const ws = useCurrentWorkspace();
  if (!isRealWorkspace(ws.id)) return <PageSpinner />;
  // A switch of workspace starts the page afresh (its interval, its errors).
  return <Plans key={ws.id} />;
}

function Plans() {
  const ws = useCurrentWorkspace();
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  const overview = useBillingOverview(ws.id);
  const billing = overview.data;
  const subscription = isStandingSubscription(billing?.subscription) ? billing.subscription : null;
  const [chosen, setChosen] = useState<BillingInterval | null>(null);
  const interval: BillingInterval = chosen ?? subscription?.interval ?? 'month';
  const checkout = useStartCheckout(ws.id);
  const [leavingFor, setLeavingFor] = useState<PlanId | null>(null);
  const [refusal, setRefusal] = useState<{ plan: PlanId; message: string } | null>(null);
  const [asking, setAsking] = useState(false);
  // The plan whose Checkout waits for the billing data.
  const [detailsFor, setDetailsFor] = useState<PlanId | null>(null);
  const standing = planStandingOf(ws.plan);

  // Back from Checkout through the browser's cache: the page is as it was left, button spinning; start again.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) setLeavingFor(null);
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  async function buy(plan: PlanId) {
    setRefusal(null);
    setLeavingFor(plan);
    try {
      const { url } = await checkout.mutateAsync({ planId: plan, interval });
      goToCheckout(url);
    } catch (error) {
      setLeavingFor(null);
      // Diván's invoices need a name and a tax id first: asked here, then on to the same Checkout.
      if (isApiError(error) && error.code === 'billing_details_missing') return setDetailsFor(plan);
      setRefusal({ plan, message: messageOf(error) });
      // «Ya tienes un plan», «solo quien administra…»: the cards learn the state that explains it.
      void overview.refetch();
    }
  }

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
    <div className="mx-auto grid w-full max-w-6xl gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <p className="text-[0.8125rem] font-medium text-muted-foreground">{ws.name}</p>
          <h1 className="font-display text-3xl font-semibold tracking-tight">Planes</h1>
          <p className="max-w-prose text-sm text-muted-foreground">
            Precio por usuario activo al mes o al año, IVA no incluido. Usuarios activos son los miembros del espacio con un rol; las
            invitaciones pendientes no cuentan.
          </p>
        </div>
        {billing?.mode === 'test' ? <TestModeBadge /> : null}
      </div>

      {params.get('canceled') ? (
        <Alert className="flex items-start gap-3">
          <span className="flex-1">{planTexts.canceled}. Puedes elegir otro plan o volver cuando quieras.</span>
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

      <div
        data-testid="plan-standing"
        className={cn(
          'flex items-start gap-3 rounded-lg border px-4 py-3 text-sm leading-relaxed',
          standing.tone === 'info'
            ? 'border-primary/25 bg-accent text-accent-foreground'
            : 'border-warning-fg/20 bg-warning-bg text-warning-fg',
        )}
      >
        <Gem className="mt-0.5 size-4 shrink-0" aria-hidden />
        <p>{standing.text}</p>
      </div>

      {overview.isError ? (
        <LoadError what="el estado del plan de tu espacio" error={overview.error} onRetry={() => void overview.refetch()} />
      ) : null}

      <div className="flex flex-wrap items-center justify-between gap-3">
        <IntervalToggle
          value={interval}
          onChange={(i) => {
            setChosen(i);
            setRefusal(null);
          }}
        />
        {billing && !billing.available ? <p className="text-sm text-muted-foreground">{planTexts.unavailable}</p> : null}
      </div>

      <div className="grid items-stretch gap-4 lg:grid-cols-3">
        {PLAN_IDS.map((id) => (
          <PlanCard
            key={id}
            id={id}
            interval={interval}
            action={cardActionOf(id, overview.isError ? null : billing, ws.plan.id)}
            current={ws.plan.id === id}
            trying={standing.trying && id === 'advance'}
            estimate={billing ? estimateOf(id, interval, billing.activeUsers) : null}
            subscription={subscription}
            pending={leavingFor === id}
            busy={leavingFor !== null && leavingFor !== id}
            error={refusal?.plan === id ? refusal.message : null}
            onCheckout={() => void buy(id)}
            onContact={() => setAsking(true)}
          />
        ))}
      </div>

      <Questions />

      {asking ? (
        <Suspense fallback={null}>
          <TeamContactDialog workspaceName={ws.name} page={pathname} onClose={() => setAsking(false)} />
        </Suspense>
      ) : null}
      {detailsFor ? (
        <Suspense fallback={null}>
          <BillingDetailsDialog
            wid={ws.id}
            onClose={() => setDetailsFor(null)}
            onSaved={() => {
              setDetailsFor(null);
              void buy(detailsFor);
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

/** Where to ask: the installation's address (GET /support), or the help page when it has none. */
function Questions() {
  const support = useSupportContact();
  const email = support.data?.email;
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
      <Mail className="size-4" aria-hidden />
      <span>¿Dudas sobre qué plan te conviene?</span>
      {email ? (
        <a className="break-all font-medium text-primary underline underline-offset-2" href={`mailto:${email}`}>
          Escríbenos a {email}
        </a>
      ) : (
        <Link className="font-medium text-primary underline underline-offset-2" to="/settings/help">
          Escríbenos desde Ayuda
        </Link>
      )}
    </p>
  );
}

export { PlansRoute as Component };
