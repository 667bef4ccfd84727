import { describe, expect, it } from 'vitest';
import type { BillingCheckoutStatus, BillingOverview, BillingSubscription } from '@divan/core';
import {
  cardActionOf,
  estimateOf,
  freeMonthsOf,
  keepsPolling,
  planStandingOf,
  planTexts,
  successViewOf,
  teamInquiryMessage,
  yearlySavingLabel,
} from './plan-offer';

const overview = (o: Partial<BillingOverview> = {}): BillingOverview => ({
  available: true,
  mode: 'test',
  canManage: true,
  activeUsers: 3,
  subscription: null,
  ...o,
});
const subscription = (o: Partial<BillingSubscription> = {}): BillingSubscription => ({
  planId: 'advance',
  interval: 'year',
  status: 'active',
  quantity: 3,
  unitAmount: 29000,
  currentPeriodEnd: '2027-12-03T00:00:00.000Z',
  cancelAtPeriodEnd: false,
  paidPlan: null,
  scheduledChange: null,
  ...o,
});
const status = (o: Partial<BillingCheckoutStatus> = {}): BillingCheckoutStatus => ({
  status: 'complete',
  applied: false,
  planId: 'advance',
  interval: 'year',
  ...o,
});

describe('the estimate for the workspace', () => {
  it('multiplies the active users by the price of the interval, VAT apart', () => {
    expect(estimateOf('advance', 'month', 3)).toEqual({
      users: 3,
      unit: 2900,
      total: 8700,
      text: '3 usuarios activos × 29,00\u00a0€ = 87,00\u00a0€ + IVA al mes',
    });
    expect(estimateOf('basic', 'year', 2)?.text).toBe('2 usuarios activos × 190,00\u00a0€ = 380,00\u00a0€ + IVA al año');
  });

  it('bills at least one user, in the singular, and has no estimate for Team', () => {
    expect(estimateOf('advance', 'year', 0)?.text).toBe('1 usuario activo × 290,00\u00a0€ = 290,00\u00a0€ + IVA al año');
    expect(estimateOf('team', 'month', 8)).toBeNull();
  });
});

describe('the yearly saving', () => {
  it('is two months of each plan sold by Checkout, none for Team', () => {
    expect(freeMonthsOf('basic')).toBe(2);
    expect(freeMonthsOf('advance')).toBe(2);
    expect(freeMonthsOf('team')).toBe(0);
    expect(yearlySavingLabel()).toBe('2 meses gratis');
  });
});

describe('which button a plan’s card shows', () => {
  it('Team always asks for a price; the others wait for the billing state', () => {
    expect(cardActionOf('team', undefined)).toEqual({ kind: 'contact' });
    expect(cardActionOf('team', overview({ canManage: false }))).toEqual({ kind: 'contact' });
    expect(cardActionOf('advance', undefined)).toEqual({ kind: 'loading' });
    expect(cardActionOf('advance', null).kind).toBe('disabled');
  });

  it('offers Checkout to whoever manages the workspace, while billing works and nothing is paid yet', () => {
    expect(cardActionOf('basic', overview())).toEqual({ kind: 'checkout' });
    expect(cardActionOf('advance', overview())).toEqual({ kind: 'checkout' });
    // A Team plan (set by Diván's team) is not replaced from here; Team's own card still offers the contact.
    expect(cardActionOf('advance', overview(), 'team')).toEqual({ kind: 'disabled', reason: planTexts.onTeam });
    expect(cardActionOf('team', overview(), 'team')).toEqual({ kind: 'contact' });
  });

  it('says why not: a member who may not manage, billing unavailable', () => {
    expect(cardActionOf('advance', overview({ canManage: false }))).toEqual({ kind: 'disabled', reason: planTexts.notManager });
    expect(cardActionOf('advance', overview({ available: false }))).toEqual({ kind: 'disabled', reason: planTexts.unavailable });
    // Who may not manage is told that first, whatever else holds.
    expect(cardActionOf('advance', overview({ canManage: false, available: false, subscription: subscription() }))).toEqual({
      kind: 'disabled',
      reason: planTexts.notManager,
    });
  });

  it('sends a workspace that already pays to Ajustes › Plan, naming the plan it pays for', () => {
    const paying = overview({ subscription: subscription({ planId: 'advance', status: 'past_due' }) });
    expect(cardActionOf('advance', paying)).toEqual({ kind: 'settings', reason: planTexts.changeInSettings, subscribed: true });
    expect(cardActionOf('basic', paying)).toEqual({ kind: 'settings', reason: planTexts.changeInSettings, subscribed: false });
    // An ended subscription stands in the way of nothing.
    expect(cardActionOf('advance', overview({ subscription: subscription({ status: 'canceled' }) }))).toEqual({ kind: 'checkout' });
    expect(cardActionOf('basic', overview({ subscription: subscription({ status: 'incomplete_expired' }) }))).toEqual({ kind: 'checkout' });
  });
});

describe('the payment-success page', () => {
  it('believes only the applied plan, and says so when the Checkout expired or the wait ran out', () => {
    const ok = { failed: false, timedOut: false };
    expect(successViewOf(undefined, ok)).toBe('waiting');
    expect(successViewOf(status({ status: 'complete', applied: false }), ok)).toBe('waiting');
    expect(successViewOf(status({ applied: true }), { failed: true, timedOut: true })).toBe('applied');
    expect(successViewOf(status({ status: 'expired', planId: null, interval: null }), ok)).toBe('expired');
    expect(successViewOf(status(), { failed: false, timedOut: true })).toBe('timeout');
    expect(successViewOf(undefined, { failed: true, timedOut: false })).toBe('error');
  });

  it('keeps asking until the plan is applied or the Checkout expired', () => {
    expect(keepsPolling(undefined)).toBe(true);
    expect(keepsPolling(status({ status: 'open' }))).toBe(true);
    expect(keepsPolling(status({ status: 'complete' }))).toBe(true);
    expect(keepsPolling(status({ applied: true }))).toBe(false);
    expect(keepsPolling(status({ status: 'expired' }))).toBe(false);
  });
});

describe('the Team question', () => {
  it('names the workspace and the team’s size before the therapist’s words', () => {
    expect(teamInquiryMessage({ workspaceName: 'Centro Alba', therapists: 6, message: '  Tenemos dos sedes.  ' })).toBe(
      'Consulta del plan Team para el espacio «Centro Alba».\nTerapeutas: 6\n\nTenemos dos sedes.',
    );
    expect(teamInquiryMessage({ workspaceName: 'Centro Alba', therapists: 2, message: ' ' })).toBe(
      'Consulta del plan Team para el espacio «Centro Alba».\nTerapeutas: 2',
    );
  });
});

describe('what /plans says about the plan in force', () => {
  const now = new Date('2026-12-03T10:00:00Z');
  const plan = { id: null, freeTrialEnd: null, periodEnd: null, renovationEnabled: false };

  it('counts the trial’s days (Premium) and says what its end brings', () => {
    expect(planStandingOf({ ...plan, freeTrialEnd: '2026-12-13T10:00:00Z' }, now)).toEqual({
      trying: true,
      tone: 'info',
      text: 'Estás probando Premium: te quedan 10 días (hasta el 13/12/2026). Cuando termine, si no contratas un plan, el espacio seguirá con las funciones de Basic: no se borra nada.',
    });
    expect(planStandingOf({ ...plan, freeTrialEnd: '2026-12-03T20:00:00Z' }, now)).toMatchObject({ trying: true, tone: 'warning' });
    expect(planStandingOf({ ...plan, freeTrialEnd: '2026-11-30T10:00:00Z' }, now)).toEqual({
      trying: false,
      tone: 'warning',
      text: 'Tu prueba de Premium terminó el 30/11/2026. El espacio funciona con las funciones de Basic; no se ha borrado nada.',
    });
  });

  it('names the plan and its renewal once there is one', () => {
    expect(
      planStandingOf({ id: 'advance', freeTrialEnd: null, periodEnd: '2027-12-03T12:00:00Z', renovationEnabled: true }, now).text,
    ).toBe('Tu espacio tiene el plan Premium: se renueva el 03/12/2027.');
    expect(planStandingOf({ id: 'basic', freeTrialEnd: null, periodEnd: '2027-01-03T12:00:00Z', renovationEnabled: false }, now).text).toBe(
      'Tu espacio tiene el plan Basic: activo hasta el 03/01/2027, renovación desactivada.',
    );
    expect(planStandingOf(plan, now).text).toBe('Este espacio no tiene un plan activo y funciona con las funciones de Basic.');
  });
});
