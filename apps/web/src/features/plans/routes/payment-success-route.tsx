import { useEffect, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { Check, CircleAlert, Clock, PartyPopper, RotateCw } from 'lucide-react';
import { BILLING_INTERVAL_LABELS, PLAN_LABELS } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Logo } from '@/components/ui/logo';
import { Spinner } from '@/components/ui/spinner';
import { messageOf } from '@/lib/error-message';
import { queryClient } from '@/lib/query-client';
import { usePageTitle } from '@/lib/use-page-title';
import { useCurrentWorkspace, useWorkspacesStore } from '@/stores/workspaces-store';
import { refreshWorkspaces, useCheckoutStatus } from '../api/plans-api';
import { planLines } from '../utils/plan-features';
import { successViewOf } from '../utils/plan-offer';

/** How often the page asks whether the payment is on the workspace, and for how long before it says it is taking a while. */
export const POLL_MS = 1000;
export const POLL_TIMEOUT_MS = 60_000;

/**
 * /plans/payment-success?session_id=…&workspace=…: where Checkout sends the browser after paying. Outside
 * the shell (one task, like /workspaces/create/success) and signed in. The redirect proves nothing: the page
 * waits for the webhook to have put the plan on the workspace.
 */
export function PaymentSuccessRoute() {
  return (
    <QueryClientProvider client={queryClient}>
      <Frame>
        <PaymentSuccess />
      </Frame>
    </QueryClientProvider>
  );
}

function Frame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="flex h-16 items-center px-4 sm:px-8">
        <Link to="/" aria-label="Diván: ir al inicio" className="rounded-lg">
          <Logo />
        </Link>
      </header>
      <main id="main" className="flex flex-1 justify-center px-4 pb-12 pt-4 sm:px-8 sm:pt-10">
        <div className="w-full max-w-xl">{children}</div>
      </main>
    </div>
  );
}

function Heading({
  icon,
  tone = 'accent',
  title,
  children,
}: {
  icon: ReactNode;
  tone?: 'accent' | 'warning' | 'error';
  title: string;
  children?: ReactNode;
}) {
  const tones = {
    accent: 'bg-accent text-accent-foreground',
    warning: 'bg-warning-bg text-warning-fg',
    error: 'bg-destructive/10 text-destructive',
  };
  return (
    <div className="grid justify-items-start gap-4">
      <span className={`grid size-12 place-items-center rounded-2xl [&_svg]:size-6 ${tones[tone]}`}>{icon}</span>
      <div className="grid gap-2">
        <h1 className="font-display text-3xl font-semibold tracking-tight">{title}</h1>
        {children ? <div className="grid gap-2 text-[0.9375rem] leading-relaxed text-muted-foreground">{children}</div> : null}
      </div>
    </div>
  );
}

const BackToPlans = ({ variant = 'outline' }: { variant?: 'outline' | 'default' }) => (
  <Button asChild variant={variant}>
    <Link to="/plans">Volver a los planes</Link>
  </Button>
);

/** The page's body; `pollMs` and `timeoutMs` are the constants above, shorter in tests. */
export function PaymentSuccess({ pollMs = POLL_MS, timeoutMs = POLL_TIMEOUT_MS }: { pollMs?: number; timeoutMs?: number }) {
  usePageTitle('Pago del plan');
  const [params] = useSearchParams();
  const current = useCurrentWorkspace();
  const sessionId = params.get('session_id') ?? '';
  const wid = params.get('workspace') ?? current.id;
  const workspace = useWorkspacesStore((s) => s.workspaces.find((w) => w.id === wid));
  const qc = useQueryClient();

  // Each round of waiting lasts `timeoutMs`; «Volver a comprobar» starts another.
  const [round, setRound] = useState(0);
  const [spentRound, setSpentRound] = useState(-1);
  useEffect(() => {
    const timer = setTimeout(() => setSpentRound(round), timeoutMs);
    return () => clearTimeout(timer);
  }, [round, timeoutMs]);
  const timedOut = spentRound === round;

  const status = useCheckoutStatus(wid, sessionId, { pollMs, polling: !timedOut });
  const view = successViewOf(status.data, { failed: status.isError, timedOut });

  // Applied: every screen reads the workspace's new plan and features (and the plans page its subscription).
  const applied = view === 'applied';
  useEffect(() => {
    // A failure here changes nothing on screen: the shell reads the list again when it mounts.
    if (applied) refreshWorkspaces(qc, wid).catch(() => undefined);
  }, [applied, qc, wid]);

  const retry = () => {
    setRound((r) => r + 1);
    void status.refetch();
  };

  if (!sessionId)
    return (
      <div className="grid gap-6">
        <Heading icon={<CircleAlert aria-hidden />} tone="warning" title="No sabemos qué pago comprobar">
          <p>A este enlace le falta el identificador del pago. Si acabas de pagar, tu plan se activará en cuanto se confirme.</p>
        </Heading>
        <div>
          <BackToPlans variant="default" />
        </div>
      </div>
    );

  if (view === 'applied') {
    const plan = status.data?.planId ?? workspace?.plan.id ?? null;
    const interval = status.data?.interval;
    return (
      <div className="grid gap-8">
        <Heading icon={<PartyPopper aria-hidden />} title={plan ? `Ya tienes ${PLAN_LABELS[plan]}` : 'Ya tienes tu plan'}>
          <p>
            Hemos recibido el pago
            {workspace ? (
              <>
                {' '}
                y el espacio <span className="font-medium text-foreground">{workspace.name}</span> ya tiene el plan
              </>
            ) : null}
            {interval ? ` (pago ${BILLING_INTERVAL_LABELS[interval].toLowerCase()})` : ''}.
          </p>
        </Heading>
        {plan ? (
          <Card>
            <CardContent className="grid gap-3">
              <h2 className="text-sm font-medium">Lo que ya puedes usar</h2>
              <ul className="grid gap-2 text-sm">
                {planLines(plan).map((line) => (
                  <li key={line.label} className="flex items-start gap-2">
                    <Check className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
                    <span>{line.label}</span>
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        ) : null}
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button asChild size="lg">
            <Link to="/">Ir al inicio</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to="/billing">Ir a facturación</Link>
          </Button>
        </div>
      </div>
    );
  }

  if (view === 'expired')
    return (
      <div className="grid gap-6">
        <Heading icon={<CircleAlert aria-hidden />} tone="warning" title="El pago no se ha completado">
          <p>La página de pago caducó antes de terminar, así que no se ha cobrado nada. Puedes volver a elegir tu plan cuando quieras.</p>
        </Heading>
        <div>
          <BackToPlans variant="default" />
        </div>
      </div>
    );

  if (view === 'error')
    return (
      <div className="grid gap-6">
        <Heading icon={<CircleAlert aria-hidden />} tone="error" title="No hemos podido comprobar el pago">
          <p role="alert">{messageOf(status.error)}</p>
          <p>Si has pagado, no pagues otra vez: tu plan se activará en cuanto se confirme.</p>
        </Heading>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button onClick={retry}>
            <RotateCw aria-hidden /> Reintentar
          </Button>
          <BackToPlans />
        </div>
      </div>
    );

  if (view === 'timeout')
    return (
      <div className="grid gap-6">
        <Heading icon={<Clock aria-hidden />} tone="warning" title="Estamos confirmando tu pago">
          <p>
            Está tardando más de lo habitual. No hace falta que pagues otra vez: en cuanto se confirme, tu plan se activará solo y te
            avisaremos.
          </p>
        </Heading>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button onClick={retry}>
            <RotateCw aria-hidden /> Volver a comprobar
          </Button>
          <Button asChild variant="outline">
            <Link to="/">Ir al inicio</Link>
          </Button>
        </div>
      </div>
    );

  return (
    <div className="grid justify-items-center gap-4 py-10 text-center" aria-live="polite">
      <Spinner className="[&_svg]:size-8" label="Confirmando el pago…" />
      <h1 className="font-display text-2xl font-semibold tracking-tight">Confirmando el pago…</h1>
      <p className="max-w-sm text-[0.9375rem] text-muted-foreground">Suele tardar unos segundos. No cierres esta página.</p>
    </div>
  );
}

export { PaymentSuccessRoute as Component };
