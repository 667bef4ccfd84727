import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { messageOf } from '@/lib/error-message';
import { usePageTitle } from '@/lib/use-page-title';
import { isRealWorkspace, useWorkspacesStore } from '@/stores/workspaces-store';
import { dashboardUrl, onboardingUrl, useSyncAccount, type AccountHolder } from '../api/payments-api';
import type { OnboardingReturn } from '../components/payment-account-card';

/** `?workspace=<id>`: the workspace's account (made current, so the way back shows it); else the therapist's own. */
function useHolder(): { holder: AccountHolder; back: string; known: boolean } {
  const [params] = useSearchParams();
  const workspaceId = params.get('workspace');
  const known = useWorkspacesStore((s) => !workspaceId || s.workspaces.some((w) => w.id === workspaceId));
  if (!workspaceId) return { holder: { kind: 'me' }, back: '/settings/billing', known };
  return { holder: { kind: 'workspace', workspaceId }, back: '/settings/workspace/billing', known };
}

/** Runs once (StrictMode's double effect, re-renders): each call makes a single-use link at Stripe. */
function useOnce(run: () => void, ready: boolean) {
  const done = useRef(false);
  useEffect(() => {
    if (!ready || done.current) return;
    done.current = true;
    run();
  });
}

function Waiting({ text, error, back, onRetry }: { text: string; error: string | null; back: string; onRetry: () => void }) {
  if (!error) return <Spinner label={text} className="py-10" />;
  return (
    <div className="grid gap-4">
      <Alert variant="error">{error}</Alert>
      <div className="flex flex-wrap gap-2">
        <Button onClick={onRetry}>Reintentar</Button>
        <Button asChild variant="outline">
          <Link to={back}>Volver a Facturación</Link>
        </Button>
      </div>
    </div>
  );
}

/**
 * settings/billing/stripe-onboarding: where Stripe's onboarding comes back. Reads the account's state
 * (sync) and returns to the billing settings, which say what Stripe answered. `?refresh=1`: the link
 * expired before it was finished, so a new one is made and opened.
 */
export function StripeOnboardingRoute() {
  usePageTitle('Stripe', 'Ajustes');
  const [params] = useSearchParams();
  const refresh = params.get('refresh') === '1';
  const { holder, back, known } = useHolder();
  const navigate = useNavigate();
  const select = useWorkspacesStore((s) => s.select);
  const ready = useWorkspacesStore((s) => isRealWorkspace(s.currentId));
  const sync = useSyncAccount(holder);
  const [error, setError] = useState<string | null>(null);

  const run = () => {
    setError(null);
    if (!known) return setError('No perteneces al espacio de esta cuenta de cobros, o ya no tienes acceso.');
    if (holder.kind === 'workspace') select(holder.workspaceId);
    if (refresh) {
      onboardingUrl(holder, false).then(
        (url) => window.location.replace(url),
        (e: unknown) => setError(messageOf(e)),
      );
      return;
    }
    sync.mutate(undefined, {
      onSuccess: (account) =>
        void navigate(back, { replace: true, state: { stripeOnboarding: account.status } satisfies OnboardingReturn }),
      onError: (e) => setError(messageOf(e)),
    });
  };
  useOnce(run, ready);

  return (
    <div className="grid gap-4">
      <h2 className="font-display text-2xl font-semibold tracking-tight">
        {refresh ? 'Volviendo a Stripe…' : 'Comprobando tu cuenta de Stripe…'}
      </h2>
      <p className="text-sm text-muted-foreground">
        {refresh
          ? 'El enlace anterior caducó: preparamos uno nuevo para que termines de completar los datos.'
          : 'Leemos en Stripe el estado de la cuenta; en un momento vuelves a Facturación.'}
      </p>
      <Waiting text={refresh ? 'Preparando el enlace de Stripe' : 'Comprobando la cuenta'} error={error} back={back} onRetry={run} />
    </div>
  );
}

/** settings/billing/stripe-dashboard: opens Stripe's dashboard of the account (its links are single-use and short-lived, so made here). */
export function StripeDashboardRoute() {
  usePageTitle('Panel de Stripe', 'Ajustes');
  const { holder, back, known } = useHolder();
  const ready = useWorkspacesStore((s) => isRealWorkspace(s.currentId));
  const [error, setError] = useState<string | null>(null);
  const run = () => {
    setError(null);
    if (!known) return setError('No perteneces al espacio de esta cuenta de cobros, o ya no tienes acceso.');
    dashboardUrl(holder).then(
      (url) => window.location.replace(url),
      (e: unknown) => setError(messageOf(e)),
    );
  };
  useOnce(run, ready);

  return (
    <div className="grid gap-4">
      <h2 className="font-display text-2xl font-semibold tracking-tight">Abriendo el panel de Stripe…</h2>
      <Waiting text="Abriendo el panel de Stripe" error={error} back={back} onRetry={run} />
    </div>
  );
}
