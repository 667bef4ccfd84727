// What /plans and /plans/payment-success decide, as plain functions (unit-tested without a browser).
import {
  FEEDBACK_MESSAGE_MAX,
  isSelfServePlan,
  PLAN_LABELS,
  PLAN_PRICES,
  SELF_SERVE_PLANS,
  trialStatus,
  unitPriceOf,
  yearlySavingOf,
  type BillingCheckoutStatus,
  type BillingInterval,
  type BillingOverview,
  type BillingSubscription,
  type PlanId,
  type PlanState,
} from '@divan/core';
import { formatCurrency, formatDate } from '../../../lib/format'; // relative, like plan-features.ts

export const planTexts = {
  notManager: 'Solo quien administra el espacio puede contratar un plan',
  unavailable: 'La contratación de planes no está disponible en este momento. Inténtalo más tarde.',
  changeInSettings: 'Cambia tu plan desde Ajustes › Plan',
  canceled: 'Has cancelado el pago: no se ha cobrado nada',
  testMode: 'Modo de prueba: no se cobra nada real',
  inquirySent: 'Te escribiremos pronto',
  onTeam: 'Tu espacio tiene el plan Team: para cambiarlo, escríbenos',
} as const;

/**
 * What /plans says about the plan in force, with buying in mind: the trial's days left and what happens at
 * its end (spec §1: days left, last day, ended), or the plan and its renewal.
 */
export function planStandingOf(
  plan: Pick<PlanState, 'id' | 'freeTrialEnd' | 'periodEnd' | 'renovationEnabled'>,
  now = new Date(),
): {
  /** Premium runs as the trial. */
  trying: boolean;
  tone: 'info' | 'warning';
  text: string;
} {
  if (plan.id) {
    const end = plan.periodEnd ? formatDate(plan.periodEnd) : null;
    const when = end ? (plan.renovationEnabled ? `: se renueva el ${end}` : `: activo hasta el ${end}, renovación desactivada`) : '';
    return { trying: false, tone: 'info', text: `Tu espacio tiene el plan ${PLAN_LABELS[plan.id]}${when}.` };
  }
  const trial = trialStatus(plan, now);
  const until = plan.freeTrialEnd ? formatDate(plan.freeTrialEnd) : '';
  const after = 'Cuando termine, si no contratas un plan, el espacio seguirá con las funciones de Basic: no se borra nada.';
  if (trial.kind === 'days_left')
    return { trying: true, tone: 'info', text: `Estás probando Premium: te quedan ${trial.days} días (hasta el ${until}). ${after}` };
  if (trial.kind === 'last_day') return { trying: true, tone: 'warning', text: `Hoy es el último día de tu prueba de Premium. ${after}` };
  if (trial.kind === 'ended')
    return {
      trying: false,
      tone: 'warning',
      text: `Tu prueba de Premium terminó el ${until}. El espacio funciona con las funciones de Basic; no se ha borrado nada.`,
    };
  return { trying: false, tone: 'warning', text: 'Este espacio no tiene un plan activo y funciona con las funciones de Basic.' };
}

/** Where a workspace's plan is changed, reactivated or cancelled once it has a subscription. */
export const PLAN_SETTINGS_PATH = '/settings/workspace/plan';

/** «al mes» / «al año». */
export const perInterval = (interval: BillingInterval) => (interval === 'month' ? 'al mes' : 'al año');

/** Months a year of the plan gives free against paying monthly (2 with today's prices), 0 for Team. */
export function freeMonthsOf(plan: PlanId): number {
  const price = PLAN_PRICES[plan];
  return price && price.monthly > 0 ? Math.round(yearlySavingOf(plan) / price.monthly) : 0;
}

/** The yearly option's promise, «2 meses gratis», when every plan sold by Checkout gives the same; else «ahorra hasta N meses». */
export function yearlySavingLabel(): string | null {
  const months = SELF_SERVE_PLANS.map(freeMonthsOf);
  const most = Math.max(...months);
  if (most <= 0) return null;
  const n = `${most} ${most === 1 ? 'mes' : 'meses'}`;
  return months.every((m) => m === most) ? `${n} gratis` : `hasta ${n} gratis`;
}

export type Estimate = { users: number; unit: number; total: number; text: string };

/**
 * What the workspace would pay for a plan: «3 usuarios activos × 29,00 € = 87,00 € + IVA al mes». A
 * workspace is never billed for fewer than one user (its owner), whatever the count says.
 */
export function estimateOf(plan: PlanId, interval: BillingInterval, activeUsers: number): Estimate | null {
  const unit = unitPriceOf(plan, interval);
  if (unit === null) return null;
  const users = Math.max(1, Math.floor(activeUsers));
  const total = unit * users;
  const who = `${users} ${users === 1 ? 'usuario activo' : 'usuarios activos'}`;
  return { users, unit, total, text: `${who} × ${formatCurrency(unit)} = ${formatCurrency(total)} + IVA ${perInterval(interval)}` };
}

/** A subscription that is over (cancelled, or a Checkout never paid) no longer stands in the way of a new one. */
export const isStandingSubscription = (s: BillingSubscription | null | undefined): s is BillingSubscription =>
  !!s && s.status !== 'canceled' && s.status !== 'incomplete_expired';

export type CardAction =
  /** Team: «Consultar precio» opens the contact form. */
  | { kind: 'contact' }
  /** The billing state has not arrived yet. */
  | { kind: 'loading' }
  /** «Contratar»: Checkout for this plan and interval. */
  | { kind: 'checkout' }
  /** «Contratar», disabled, and why. */
  | { kind: 'disabled'; reason: string }
  /** The workspace already pays: changes go through Ajustes › Plan. `subscribed`: this card is the plan it pays for. */
  | { kind: 'settings'; reason: string; subscribed: boolean };

/** Which button a plan's card shows, from the workspace's billing state (undefined while loading, null if it failed). */
export function cardActionOf(
  plan: PlanId,
  overview: Pick<BillingOverview, 'available' | 'canManage' | 'subscription'> | null | undefined,
  /** The workspace's plan now: Team, agreed with Diván's team, is not replaced by buying another. */
  current: PlanId | null = null,
): CardAction {
  if (!isSelfServePlan(plan)) return { kind: 'contact' };
  if (current === 'team') return { kind: 'disabled', reason: planTexts.onTeam };
  if (overview === undefined) return { kind: 'loading' };
  if (overview === null) return { kind: 'disabled', reason: 'No hemos podido comprobar el plan de tu espacio.' };
  if (!overview.canManage) return { kind: 'disabled', reason: planTexts.notManager };
  if (isStandingSubscription(overview.subscription))
    return { kind: 'settings', reason: planTexts.changeInSettings, subscribed: overview.subscription.planId === plan };
  if (!overview.available) return { kind: 'disabled', reason: planTexts.unavailable };
  return { kind: 'checkout' };
}

/** What /plans/payment-success shows: it believes the webhook (`applied`), never the redirect. */
export type SuccessView = 'waiting' | 'applied' | 'expired' | 'timeout' | 'error';

export function successViewOf(status: BillingCheckoutStatus | undefined, o: { failed: boolean; timedOut: boolean }): SuccessView {
  if (status?.applied) return 'applied';
  if (status?.status === 'expired') return 'expired';
  if (o.failed) return 'error';
  if (o.timedOut) return 'timeout';
  return 'waiting';
}

/** Keep asking while the payment is not on the workspace and the Checkout can still end well. */
export const keepsPolling = (status: BillingCheckoutStatus | undefined) => !status || (!status.applied && status.status !== 'expired');

/** Therapists a Team question may name. */
export const TEAM_SIZE_MAX = 10_000;
/** Room left in a feedback message once the form's own lines are written. */
export const TEAM_MESSAGE_MAX = FEEDBACK_MESSAGE_MAX - 500;

/** The Team question as the operator reads it: which workspace, how many therapists, then their words. */
export function teamInquiryMessage({
  workspaceName,
  therapists,
  message,
}: {
  workspaceName: string;
  therapists: number;
  message: string;
}): string {
  const lines = [`Consulta del plan Team para el espacio «${workspaceName}».`, `Terapeutas: ${therapists}`];
  const text = message.trim();
  return text ? `${lines.join('\n')}\n\n${text}` : lines.join('\n');
}
