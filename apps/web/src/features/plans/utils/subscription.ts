// What Ajustes › Espacio › Plan decides about a plan already bought (issue 27, decision 0026 §5), as plain
// functions: its status, what may be done with it, and what a change would do — unit-tested without a browser.
import {
  BILLING_INTERVAL_LABELS,
  LIVE_SUBSCRIPTION_STATUSES,
  PLAN_FEATURES,
  PLAN_LABELS,
  unitPriceOf,
  type BillingChangeBody,
  type BillingChangePreview,
  type BillingOverview,
  type BillingSubscription,
  type PlanId,
} from '@divan/core';
import { formatCurrency, formatDate } from '../../../lib/format'; // relative, like plan-offer.ts
import { perInterval, planTexts } from './plan-offer';

export const subscriptionTexts = {
  notManager: 'Los cambios de plan los decide quien administra el espacio',
  reactivateToChange: 'Para cambiar de plan, reactiva antes la renovación.',
  notLive: 'Con la suscripción en este estado no se puede cambiar. Si necesitas ayuda, escríbenos.',
  prorationTag: 'Ajuste por el cambio',
} as const;

/** The provider's statuses in which the plan is in force and can be changed (past_due: the card is being retried). */
export const isLiveSubscription = (s: Pick<BillingSubscription, 'status'>) => LIVE_SUBSCRIPTION_STATUSES.includes(s.status);

export type StatusBadge = { label: string; tone: 'accent' | 'warning' | 'destructive' | 'neutral' };

/** The badge beside the plan's name: Activa, Renovación desactivada, Pago pendiente… */
export function subscriptionStatusOf(s: Pick<BillingSubscription, 'status' | 'cancelAtPeriodEnd'>): StatusBadge {
  // A failed payment says more than the renewal being off: it is what needs doing.
  if (s.status === 'past_due') return { label: 'Pago pendiente', tone: 'warning' };
  if (s.status === 'unpaid') return { label: 'Impagada', tone: 'destructive' };
  if (s.status === 'incomplete') return { label: 'Pago sin completar', tone: 'warning' };
  if (s.status === 'paused') return { label: 'En pausa', tone: 'neutral' };
  if (s.status === 'canceled' || s.status === 'incomplete_expired') return { label: 'Terminada', tone: 'neutral' };
  if (s.cancelAtPeriodEnd) return { label: 'Renovación desactivada', tone: 'warning' };
  return { label: 'Activa', tone: 'accent' };
}

export type SubscriptionActions = {
  /** Users × price and the next payment: for who may manage the plan only. */
  amounts: boolean;
  /** GET …/billing/next-invoice: needs workspace billing (a 403 otherwise), and there is none with the renewal off. */
  nextInvoice: boolean;
  change: boolean;
  cancel: boolean;
  reactivate: boolean;
  /** Why something is not offered, or null. */
  note: string | null;
};

/** What the screen offers for a bought plan, from the workspace's billing state. */
export function subscriptionActionsOf(
  o: Pick<BillingOverview, 'available' | 'canManage'>,
  s: Pick<BillingSubscription, 'status' | 'cancelAtPeriodEnd'>,
): SubscriptionActions {
  const none = { change: false, cancel: false, reactivate: false };
  if (!o.canManage) return { ...none, amounts: false, nextInvoice: false, note: subscriptionTexts.notManager };
  const live = isLiveSubscription(s);
  const nextInvoice = o.available && live && !s.cancelAtPeriodEnd;
  if (!o.available) return { ...none, amounts: true, nextInvoice, note: planTexts.unavailable };
  if (!live) return { ...none, amounts: true, nextInvoice, note: subscriptionTexts.notLive };
  // With the renewal off there is no next period to change (the server says therapist_already_cancelled).
  if (s.cancelAtPeriodEnd) return { ...none, reactivate: true, amounts: true, nextInvoice, note: subscriptionTexts.reactivateToChange };
  return { change: true, cancel: true, reactivate: false, amounts: true, nextInvoice, note: null };
}

/** «Premium · Anual». */
export const planAndIntervalOf = (s: Pick<BillingSubscription, 'planId' | 'interval'>) =>
  `${PLAN_LABELS[s.planId]} · ${BILLING_INTERVAL_LABELS[s.interval]}`;

/** «3 usuarios × 29,00 € = 87,00 € + IVA al mes» (a subscription is never for fewer than one user). */
export function billedUsersOf(s: Pick<BillingSubscription, 'quantity' | 'unitAmount' | 'interval'>): string {
  const users = Math.max(1, s.quantity);
  const who = `${users} ${users === 1 ? 'usuario' : 'usuarios'}`;
  return `${who} × ${formatCurrency(s.unitAmount)} = ${formatCurrency(users * s.unitAmount)} + IVA ${perInterval(s.interval)}`;
}

/** «Se renueva el DD/MM/YYYY» or, with the renewal off, «Termina el DD/MM/YYYY»; null without a date. */
export function periodEndOf(s: Pick<BillingSubscription, 'currentPeriodEnd' | 'cancelAtPeriodEnd'>): string | null {
  if (!s.currentPeriodEnd) return null;
  const end = formatDate(s.currentPeriodEnd);
  return s.cancelAtPeriodEnd ? `Termina el ${end}` : `Se renueva el ${end}`;
}

/** After a downgrade: «Tienes Premium hasta el DD/MM/YYYY; después, Basic.» */
export function paidPlanNoticeOf(s: Pick<BillingSubscription, 'planId' | 'paidPlan'>): string | null {
  if (!s.paidPlan || s.paidPlan.planId === s.planId) return null;
  return `Tienes ${PLAN_LABELS[s.paidPlan.planId]} hasta el ${formatDate(s.paidPlan.until)}; después, ${PLAN_LABELS[s.planId]}.`;
}

/** Yearly → monthly arranged: «El DD/MM/YYYY pasarás a Premium mensual (29,00 € + IVA por usuario al mes).» */
export function scheduledChangeNoticeOf(s: Pick<BillingSubscription, 'scheduledChange'>): string | null {
  const c = s.scheduledChange;
  if (!c) return null;
  const unit = unitPriceOf(c.planId, c.interval);
  const price = unit === null ? '' : ` (${plusVat(unit)} por usuario ${c.interval === 'year' ? 'al año' : 'al mes'})`;
  return `El ${formatDate(c.at)} pasarás a ${PLAN_LABELS[c.planId]} ${c.interval === 'year' ? 'anual' : 'mensual'}${price}. Hasta entonces sigue tu plan actual.`;
}

/** The plan whose features the workspace has now: the one paid for until the renewal, or the one bought. */
export const planInForceOf = (s: Pick<BillingSubscription, 'planId' | 'paidPlan'>): PlanId => s.paidPlan?.planId ?? s.planId;

/** «hasta 30 pacientes activos por terapeuta, 1 recordatorio por sesión y facturas manuales», from core's table. */
export function basicLimitsText(): string {
  const f = PLAN_FEATURES.basic;
  const patients =
    f.activePatientLimit === null ? 'pacientes activos ilimitados' : `hasta ${f.activePatientLimit} pacientes activos por terapeuta`;
  const reminders = `${f.sessionReminders} ${f.sessionReminders === 1 ? 'recordatorio' : 'recordatorios'} por sesión`;
  return `${patients}, ${reminders} y ${f.canCreateInvoiceBatch ? 'facturas automáticas' : 'facturas manuales'}`;
}

/** What «Desactivar renovación» asks before doing it. */
export function cancelRenewalText(s: Pick<BillingSubscription, 'planId' | 'paidPlan' | 'currentPeriodEnd'>): string {
  const until = s.currentPeriodEnd ? `hasta el ${formatDate(s.currentPeriodEnd)}` : 'hasta el final del periodo pagado';
  return (
    `Tu plan ${PLAN_LABELS[planInForceOf(s)]} sigue activo ${until} y no se te volverá a cobrar. No se borra nada: ` +
    `después, el espacio seguirá funcionando con los límites de Basic (${basicLimitsText()}). ` +
    'Puedes reactivar la renovación antes de esa fecha.'
  );
}

/** «Se renovará el DD/MM/YYYY», said once the renewal is on again. */
export const reactivatedText = (s: Pick<BillingSubscription, 'currentPeriodEnd'>) =>
  s.currentPeriodEnd ? `Renovación reactivada: tu plan se renovará el ${formatDate(s.currentPeriodEnd)}.` : 'Renovación reactivada.';

/** The choice in «Cambiar de plan» is the plan the workspace already has: nothing to preview. */
export const isSameChoice = (s: Pick<BillingSubscription, 'planId' | 'interval'>, c: BillingChangeBody) =>
  s.planId === c.planId && s.interval === c.interval;

/** An amount the person pays, «87,00 € + IVA». */
export const plusVat = (cents: number) => `${formatCurrency(cents)} + IVA`;

export type ChangeSummary = {
  /** When it applies: «Se aplica ahora…» / «Se aplicará al renovar, el DD/MM/YYYY…». */
  when: string;
  /** What is charged, and when. */
  charge: string;
  /** A move down to Basic: what happens with what goes over its limits. */
  warning: string | null;
  /** The toast once it is done. */
  done: string;
};

/**
 * What the server's preview of a change means for the person: an upgrade (or monthly → yearly) applies now,
 * the difference prorated on the next invoice — or billed at once for a new interval, whose period starts
 * today; a downgrade waits for the renewal, the plan paid for kept until then.
 */
export function changeSummaryOf(
  s: Pick<BillingSubscription, 'planId' | 'interval' | 'paidPlan'>,
  to: BillingChangeBody,
  p: BillingChangePreview,
): ChangeSummary {
  const target = `${PLAN_LABELS[to.planId]} ${to.interval === 'year' ? 'anual' : 'mensual'}`;
  const date = formatDate(p.nextPaymentAt);
  const billed = p.subtotal > 0 ? plusVat(p.subtotal) : null;
  if (p.effective === 'period_end') {
    const inForce = PLAN_LABELS[planInForceOf(s)];
    return {
      when: `Se aplicará al renovar, el ${date}. Hasta entonces sigues con ${inForce} y todas sus funciones.`,
      charge: billed ? `Hoy no se cobra nada. El ${date} se cobrarán ${billed}.` : 'Hoy no se cobra nada.',
      warning:
        to.planId === 'basic'
          ? `Con Basic tendrás ${basicLimitsText()}. Lo que pase de esos límites se conserva y se puede leer: no se borra nada.`
          : null,
      done: `Cambiarás a ${target} al renovar, el ${date}.`,
    };
  }
  const done = `Tu plan es ahora ${target}.`;
  if (to.interval !== s.interval)
    return {
      when: `Se aplica ahora: el periodo ${to.interval === 'year' ? 'anual' : 'mensual'} empieza hoy.`,
      charge: billed
        ? `Se cobran ahora ${billed}, descontado lo que no has usado del periodo actual.`
        : 'Hoy no se cobra nada: lo que no has usado del periodo actual lo cubre.',
      warning: null,
      done,
    };
  const adjustment = p.proration !== 0 ? ` El ajuste por lo que queda del periodo (${formatCurrency(p.proration)}) va en ella.` : '';
  return {
    when: `Se aplica ahora: tendrás las funciones de ${PLAN_LABELS[to.planId]} en cuanto confirmes.`,
    charge: billed
      ? `Hoy no se cobra nada. Tu próxima factura, el ${date}, será de ${billed}.${adjustment}`
      : `Hoy no se cobra nada, ni en tu próxima factura, el ${date}.`,
    warning: null,
    done,
  };
}
