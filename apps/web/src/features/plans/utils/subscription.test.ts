import { describe, expect, it } from 'vitest';
import type { BillingChangePreview, BillingOverview, BillingSubscription } from '@divan/core';
import { planTexts } from './plan-offer';
import {
  basicLimitsText,
  billedUsersOf,
  cancelRenewalText,
  changeSummaryOf,
  isSameChoice,
  paidPlanNoticeOf,
  periodEndOf,
  planAndIntervalOf,
  planInForceOf,
  subscriptionActionsOf,
  subscriptionStatusOf,
  subscriptionTexts,
} from './subscription';

const NBSP = '\u00a0';
const eur = (s: string) => s.replace(/ €/g, `${NBSP}€`);
const overview = (o: Partial<BillingOverview> = {}): Pick<BillingOverview, 'available' | 'canManage'> => ({
  available: true,
  canManage: true,
  ...o,
});
const sub = (o: Partial<BillingSubscription> = {}): BillingSubscription => ({
  planId: 'advance',
  interval: 'month',
  status: 'active',
  quantity: 3,
  unitAmount: 2900,
  currentPeriodEnd: '2027-01-15T11:00:00.000Z',
  cancelAtPeriodEnd: false,
  paidPlan: null,
  scheduledChange: null,
  ...o,
});
const preview = (o: Partial<BillingChangePreview> = {}): BillingChangePreview => ({
  effective: 'now',
  nextPaymentAt: '2027-01-15T11:00:00.000Z',
  subtotal: 9900,
  proration: 1200,
  lines: [],
  ...o,
});

describe('subscriptionStatusOf', () => {
  it('says Activa, Renovación desactivada, or Pago pendiente while the card is retried', () => {
    expect(subscriptionStatusOf(sub())).toEqual({ label: 'Activa', tone: 'accent' });
    expect(subscriptionStatusOf(sub({ status: 'trialing' })).label).toBe('Activa');
    expect(subscriptionStatusOf(sub({ cancelAtPeriodEnd: true }))).toEqual({ label: 'Renovación desactivada', tone: 'warning' });
    // A payment to sort out says more than the renewal being off.
    expect(subscriptionStatusOf(sub({ status: 'past_due', cancelAtPeriodEnd: true }))).toEqual({
      label: 'Pago pendiente',
      tone: 'warning',
    });
    expect(subscriptionStatusOf(sub({ status: 'unpaid' })).tone).toBe('destructive');
    expect(subscriptionStatusOf(sub({ status: 'canceled' })).label).toBe('Terminada');
  });
});

describe('subscriptionActionsOf', () => {
  it('offers change and renewal off on a live plan, and reads its next invoice', () => {
    expect(subscriptionActionsOf(overview(), sub())).toEqual({
      amounts: true,
      nextInvoice: true,
      change: true,
      cancel: true,
      reactivate: false,
      note: null,
    });
    expect(subscriptionActionsOf(overview(), sub({ status: 'past_due' })).change).toBe(true);
  });
  it('with the renewal off: only «Reactivar», no next invoice, and why the plan cannot change', () => {
    expect(subscriptionActionsOf(overview(), sub({ cancelAtPeriodEnd: true }))).toEqual({
      amounts: true,
      nextInvoice: false,
      change: false,
      cancel: false,
      reactivate: true,
      note: subscriptionTexts.reactivateToChange,
    });
  });
  it('a member who may not manage sees no amounts, no actions, and asks nothing of workspace billing', () => {
    expect(subscriptionActionsOf(overview({ canManage: false }), sub())).toEqual({
      amounts: false,
      nextInvoice: false,
      change: false,
      cancel: false,
      reactivate: false,
      note: 'Los cambios de plan los decide quien administra el espacio',
    });
  });
  it('offers nothing while billing is unavailable or the subscription is not live', () => {
    const off = subscriptionActionsOf(overview({ available: false }), sub());
    expect(off).toMatchObject({ change: false, cancel: false, reactivate: false, nextInvoice: false, note: planTexts.unavailable });
    const unpaid = subscriptionActionsOf(overview(), sub({ status: 'unpaid' }));
    expect(unpaid).toMatchObject({ change: false, cancel: false, reactivate: false, nextInvoice: false, amounts: true });
    expect(unpaid.note).toBe(subscriptionTexts.notLive);
  });
});

describe('what the panel says', () => {
  it('names the plan and interval, the users billed and the period end', () => {
    expect(planAndIntervalOf(sub({ interval: 'year' }))).toBe('Premium · Anual');
    expect(billedUsersOf(sub())).toBe(eur('3 usuarios × 29,00 € = 87,00 € + IVA al mes'));
    expect(billedUsersOf(sub({ quantity: 1, unitAmount: 19000, interval: 'year' }))).toBe(
      eur('1 usuario × 190,00 € = 190,00 € + IVA al año'),
    );
    expect(periodEndOf(sub())).toBe('Se renueva el 15/01/2027');
    expect(periodEndOf(sub({ cancelAtPeriodEnd: true }))).toBe('Termina el 15/01/2027');
    expect(periodEndOf(sub({ currentPeriodEnd: null }))).toBeNull();
  });
  it('after a downgrade, says until when the plan paid for lasts and what follows', () => {
    const down = sub({ planId: 'basic', paidPlan: { planId: 'advance', until: '2027-01-15T11:00:00.000Z' } });
    expect(paidPlanNoticeOf(down)).toBe('Tienes Premium hasta el 15/01/2027; después, Basic.');
    expect(planInForceOf(down)).toBe('advance');
    expect(paidPlanNoticeOf(sub())).toBeNull();
  });
  it('asks before the renewal goes off: the plan stays until the end, nothing is deleted, then Basic’s limits', () => {
    expect(basicLimitsText()).toBe('hasta 30 pacientes activos por terapeuta, 1 recordatorio por sesión y facturas manuales');
    const text = cancelRenewalText(sub());
    expect(text).toContain('Tu plan Premium sigue activo hasta el 15/01/2027');
    expect(text).toContain('No se borra nada');
    expect(text).toContain('los límites de Basic (hasta 30 pacientes');
  });
});

describe('changeSummaryOf', () => {
  it('an upgrade applies now, the adjustment on the next invoice', () => {
    const s = sub({ planId: 'basic', unitAmount: 1900 });
    const to = { planId: 'advance', interval: 'month' } as const;
    expect(isSameChoice(s, to)).toBe(false);
    expect(isSameChoice(s, { planId: 'basic', interval: 'month' })).toBe(true);
    const summary = changeSummaryOf(s, to, preview());
    expect(summary.when).toBe('Se aplica ahora: tendrás las funciones de Premium en cuanto confirmes.');
    expect(summary.charge).toBe(
      eur(
        'Hoy no se cobra nada. Tu próxima factura, el 15/01/2027, será de 99,00 € + IVA. El ajuste por lo que queda del periodo (12,00 €) va en ella.',
      ),
    );
    expect(summary.warning).toBeNull();
    expect(summary.done).toBe('Tu plan es ahora Premium mensual.');
  });
  it('monthly → yearly is billed now, the unused month taken off', () => {
    const summary = changeSummaryOf(
      sub(),
      { planId: 'advance', interval: 'year' },
      preview({ subtotal: 84000, nextPaymentAt: '2026-12-03T10:00:00Z' }),
    );
    expect(summary.when).toBe('Se aplica ahora: el periodo anual empieza hoy.');
    expect(summary.charge).toBe(eur('Se cobran ahora 840,00 € + IVA, descontado lo que no has usado del periodo actual.'));
  });
  it('a downgrade waits for the renewal, keeps the plan paid for, and says what happens over Basic’s limits', () => {
    const summary = changeSummaryOf(
      sub(),
      { planId: 'basic', interval: 'month' },
      preview({ effective: 'period_end', subtotal: 5700, proration: 0 }),
    );
    expect(summary.when).toBe('Se aplicará al renovar, el 15/01/2027. Hasta entonces sigues con Premium y todas sus funciones.');
    expect(summary.charge).toBe(eur('Hoy no se cobra nada. El 15/01/2027 se cobrarán 57,00 € + IVA.'));
    expect(summary.warning).toContain('no se borra nada');
    expect(summary.done).toBe('Cambiarás a Basic mensual al renovar, el 15/01/2027.');
  });
});
