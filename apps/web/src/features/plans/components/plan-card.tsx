import { useId } from 'react';
import { Link } from 'react-router';
import { Check } from 'lucide-react';
import {
  BILLING_INTERVAL_LABELS,
  PLAN_LABELS,
  yearlySavingOf,
  type BillingInterval,
  type BillingSubscription,
  type PlanId,
} from '@divan/core';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { formatCurrency, formatDate } from '@/lib/format';
import { intervalPriceLines, planLines } from '../utils/plan-features';
import { PLAN_SETTINGS_PATH, type CardAction, type Estimate } from '../utils/plan-offer';

type Props = {
  id: PlanId;
  interval: BillingInterval;
  action: CardAction;
  /** The workspace's plan now (its `plan.id`). */
  current: boolean;
  /** The free trial runs with this plan's features. */
  trying: boolean;
  estimate: Estimate | null;
  subscription: BillingSubscription | null;
  /** This card's Checkout is being prepared. */
  pending: boolean;
  /** Another card's Checkout is: one at a time. */
  busy: boolean;
  /** The server's refusal of this card's Checkout, in place. */
  error: string | null;
  onCheckout: () => void;
  onContact: () => void;
};

function SubscriptionLine({ s }: { s: BillingSubscription }) {
  const end = s.currentPeriodEnd ? formatDate(s.currentPeriodEnd) : null;
  // After a downgrade the plan paid for runs until the renewal; this one starts then.
  const when = s.paidPlan
    ? `; empieza el ${formatDate(s.paidPlan.until)} (hasta entonces sigues con ${PLAN_LABELS[s.paidPlan.planId]})`
    : end
      ? s.cancelAtPeriodEnd
        ? `; activo hasta el ${end}, renovación desactivada`
        : `; se renueva el ${end}`
      : '';
  return (
    <p className="text-[0.8125rem] text-muted-foreground">
      Pago {BILLING_INTERVAL_LABELS[s.interval].toLowerCase()}
      {when}.
    </p>
  );
}

/** One plan on /plans: its price for the interval chosen, what it unlocks, the estimate and what can be done. */
export function PlanCard(p: Props) {
  const { id, interval, action } = p;
  const price = intervalPriceLines(id, interval);
  const reasonId = useId();
  const saving = interval === 'year' ? yearlySavingOf(id) : 0;
  const featured = id === 'advance';

  return (
    <Card
      data-testid={`plan-${id}`}
      aria-labelledby={`${reasonId}-name`}
      role="group"
      className={cn('flex flex-col', p.current ? 'border-primary ring-1 ring-primary' : featured && 'border-primary/40')}
    >
      <CardHeader className="gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id={`${reasonId}-name`} className="font-display text-xl font-semibold tracking-tight">
            {PLAN_LABELS[id]}
          </h2>
          {p.current ? <Badge variant="accent">Tu plan</Badge> : null}
          {p.trying ? <Badge variant="accent">En prueba</Badge> : null}
        </div>
        {price ? (
          <div className="grid gap-0.5">
            <p className="flex flex-wrap items-baseline gap-x-1.5">
              <span className="text-3xl font-semibold tracking-tight tabular-nums">{price.amount}</span>
              <span className="text-sm text-muted-foreground">{price.per}</span>
            </p>
            <p className="text-[0.8125rem] text-muted-foreground">
              {price.other}
              {saving > 0 ? (
                <>
                  {' · '}
                  <span className="font-medium text-success">ahorras {formatCurrency(saving)} por usuario</span>
                </>
              ) : null}
            </p>
          </div>
        ) : (
          <div className="grid gap-0.5">
            <p className="text-3xl font-semibold tracking-tight">A medida</p>
            <p className="text-[0.8125rem] text-muted-foreground">Según el tamaño de tu equipo o centro.</p>
          </div>
        )}
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-5">
        <ul className="grid gap-2 text-sm" aria-label={`Qué incluye ${PLAN_LABELS[id]}`}>
          {planLines(id).map((line) => (
            <li key={line.label} className="flex items-start gap-2">
              <Check className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
              <span>{line.label}</span>
            </li>
          ))}
        </ul>
        <div className="mt-auto grid gap-3">
          {p.estimate ? (
            <p className="rounded-lg bg-muted px-3 py-2 text-[0.8125rem] leading-relaxed" data-testid={`estimate-${id}`}>
              <span className="block text-muted-foreground">Para tu espacio</span>
              <span className="font-medium tabular-nums">{p.estimate.text}</span>
            </p>
          ) : null}
          {p.subscription && action.kind === 'settings' && action.subscribed ? <SubscriptionLine s={p.subscription} /> : null}
          <Action {...p} reasonId={reasonId} featured={featured} />
        </div>
      </CardContent>
    </Card>
  );
}

function Action({
  action,
  pending,
  busy,
  error,
  onCheckout,
  onContact,
  reasonId,
  featured,
}: Props & { reasonId: string; featured: boolean }) {
  if (action.kind === 'contact')
    return (
      <Button type="button" variant="outline" className="w-full" onClick={onContact}>
        Consultar precio
      </Button>
    );
  const variant = featured ? 'default' : 'outline';
  if (action.kind === 'checkout')
    return (
      <>
        <Button
          type="button"
          variant={variant}
          className="w-full"
          loading={pending}
          disabled={busy}
          onClick={onCheckout}
          aria-describedby={error ? reasonId : undefined}
        >
          Contratar
        </Button>
        {error ? (
          <p id={reasonId} role="alert" className="text-[0.8125rem] font-medium text-destructive">
            {error}
          </p>
        ) : null}
      </>
    );
  if (action.kind === 'loading')
    return (
      <Button type="button" variant={variant} className="w-full" disabled aria-busy>
        Contratar
      </Button>
    );
  return (
    <>
      <Button type="button" variant={variant} className="w-full" disabled aria-describedby={reasonId}>
        {action.kind === 'settings' && action.subscribed ? 'Contratado' : 'Contratar'}
      </Button>
      <p id={reasonId} className="text-[0.8125rem] text-muted-foreground">
        {action.kind === 'settings' ? (
          <Link to={PLAN_SETTINGS_PATH} className="font-medium text-primary underline underline-offset-2">
            {action.reason}
          </Link>
        ) : (
          action.reason
        )}
      </p>
    </>
  );
}
