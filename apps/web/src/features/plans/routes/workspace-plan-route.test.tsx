// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PLAN_FEATURES, type BillingChangePreview, type BillingOverview, type BillingSubscription, type Workspace } from '@divan/core';
import { renderScreen } from '@/test/render';
import { billingOverviewKey } from '../api/plans-api';
import { planTexts } from '../utils/plan-offer';
import { enter, leave, overviewOf, stubRoutes, WID, workspaceOf } from './plans-test-kit';
import { WorkspacePlanRoute } from './workspace-plan-route';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  leave();
});

const END = '2027-01-15T11:00:00.000Z';
const NEXT_INVOICE = `GET /workspaces/${WID}/billing/next-invoice`;
const PREVIEW = `POST /workspaces/${WID}/billing/subscription/preview`;
const CHANGE = `PUT /workspaces/${WID}/billing/subscription`;
const CANCEL = `POST /workspaces/${WID}/billing/subscription/cancel`;
const REACTIVATE = `POST /workspaces/${WID}/billing/subscription/reactivate`;
const PORTAL = `POST /workspaces/${WID}/billing/portal`;
const DROP = `POST /workspaces/${WID}/billing/subscription/scheduled-change/drop`;

const premium: Workspace['plan'] = {
  id: 'advance',
  periodEnd: END,
  renovationEnabled: true,
  freeTrialEnd: null,
  seats: 3,
  promptUpgrade: false,
};
const paying = (o: Partial<Workspace> = {}) => workspaceOf({ plan: premium, features: PLAN_FEATURES.advance, maxSeats: 3, ...o });
const subscriptionOf = (o: Partial<BillingSubscription> = {}): BillingSubscription => ({
  planId: 'advance',
  interval: 'month',
  status: 'active',
  quantity: 3,
  unitAmount: 2900,
  currentPeriodEnd: END,
  cancelAtPeriodEnd: false,
  paidPlan: null,
  scheduledChange: null,
  ...o,
});
const withSubscription = (s: Partial<BillingSubscription> = {}, o: Partial<BillingOverview> = {}) =>
  overviewOf({ subscription: subscriptionOf(s), ...o });
const nextInvoice: BillingChangePreview = {
  effective: 'now',
  nextPaymentAt: END,
  subtotal: 9900,
  proration: 1200,
  lines: [
    { description: 'Tiempo restante de 1 × Diván Premium mensual desde el 03/12/2026', amount: 1200, proration: true },
    { description: 'Diván Premium mensual', amount: 8700, proration: false },
  ],
};

const panel = () => within(screen.getByTestId('subscription'));
// Testing Library normalises the no-break space of «99,00 €» when matching text; textContent keeps it.
const text = (el: HTMLElement) => (el.textContent ?? '').replace(/\u00a0/g, ' ');

function open(overview: BillingOverview) {
  return renderScreen(<WorkspacePlanRoute />, { route: '/settings/workspace/plan', queries: [[billingOverviewKey(WID), overview]] });
}

describe('Ajustes › Espacio › Plan without a plan bought', () => {
  it('shows the trial, what the workspace includes and the way to /plans, and asks no next invoice', () => {
    enter();
    const api = stubRoutes({});
    open(overviewOf());
    expect(screen.getByText('Prueba gratuita')).toBeTruthy();
    expect(screen.getByText('Incluye ahora')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ver planes y contratar' }).getAttribute('href')).toBe('/plans');
    expect(screen.queryByTestId('subscription')).toBeNull();
    expect(api.requests).toEqual([]);
  });
});

describe('Ajustes › Espacio › Plan with a plan bought', () => {
  it('shows the plan, its status, the users billed and the next payment with its lines', async () => {
    enter(paying());
    const api = stubRoutes({ [NEXT_INVOICE]: [200, nextInvoice] });
    open(withSubscription());
    expect(screen.getByRole('heading', { name: 'Tu suscripción' })).toBeTruthy();
    expect(panel().getByText('Premium · Mensual')).toBeTruthy();
    expect(panel().getByTestId('subscription-status').textContent).toBe('Activa');
    expect(panel().getByText('Se renueva el 15/01/2027')).toBeTruthy();
    expect(panel().getByText('3 usuarios × 29,00 € = 87,00 € + IVA al mes')).toBeTruthy();
    expect(text(await panel().findByTestId('next-payment'))).toBe('15/01/2027 · 99,00 € + IVA');
    const lines = within(panel().getByRole('list', { name: 'Líneas del próximo pago' })).getAllByRole('listitem');
    expect(lines.map(text)).toEqual([
      'Tiempo restante de 1 × Diván Premium mensual desde el 03/12/2026Ajuste por el cambio12,00 €',
      'Diván Premium mensual87,00 €',
      'Total99,00 € + IVA',
    ]);
    expect(panel().getByText(planTexts.testMode)).toBeTruthy();
    expect(panel().getByRole('button', { name: 'Cambiar de plan' })).toBeTruthy();
    expect(panel().getByRole('button', { name: 'Desactivar renovación' })).toBeTruthy();
    expect(api.count(NEXT_INVOICE)).toBe(1);
  });

  it('«Cambiar de plan» previews the change, then PUTs the plan chosen; a downgrade applies at the renewal', async () => {
    enter(paying());
    const downgraded = withSubscription({ planId: 'basic', unitAmount: 1900, paidPlan: { planId: 'advance', until: END } });
    const api = stubRoutes({
      [NEXT_INVOICE]: [200, nextInvoice],
      [PREVIEW]: [
        200,
        {
          effective: 'period_end',
          nextPaymentAt: END,
          subtotal: 5700,
          proration: 0,
          lines: [{ description: 'Diván Basic mensual', amount: 5700, proration: false }],
        },
      ],
      [CHANGE]: [200, downgraded],
      'GET /workspaces': [200, [paying()]],
    });
    const { user } = open(withSubscription());
    await user.click(panel().getByRole('button', { name: 'Cambiar de plan' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cambiar de plan' }));
    // The plan it has: nothing to preview, nothing to confirm.
    expect(dialog.getByText(/^Es tu plan actual/)).toBeTruthy();
    const confirm = () => dialog.getByRole('button', { name: 'Confirmar cambio' }) as HTMLButtonElement;
    expect(confirm().disabled).toBe(true);
    expect(api.count(PREVIEW)).toBe(0);

    await user.click(dialog.getByRole('radio', { name: /Basic/ }));
    expect(
      await dialog.findByText('Se aplicará al renovar, el 15/01/2027. Hasta entonces sigues con Premium y todas sus funciones.'),
    ).toBeTruthy();
    expect(dialog.getByText('Hoy no se cobra nada. El 15/01/2027 se cobrarán 57,00 € + IVA.')).toBeTruthy();
    expect(dialog.getByText(/no se borra nada/)).toBeTruthy();
    expect(confirm().disabled).toBe(false);
    await user.click(confirm());

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const sent = api.requests.filter((r) => r.route === PREVIEW || r.route === CHANGE);
    expect(sent).toEqual([
      { route: PREVIEW, body: { planId: 'basic', interval: 'month' } },
      { route: CHANGE, body: { planId: 'basic', interval: 'month' } },
    ]);
    expect(panel().getByText('Basic · Mensual')).toBeTruthy();
    expect(panel().getByTestId('paid-plan').textContent).toBe('Tienes Premium hasta el 15/01/2027; después, Basic.');
    // The next invoice and the workspace's plan are read again.
    await waitFor(() => expect(api.count(NEXT_INVOICE)).toBe(2));
    await waitFor(() => expect(api.count('GET /workspaces')).toBe(1));
  });

  it('yearly → monthly waits for the renewal: previewed, arranged, shown with «Anular el cambio», which drops it', async () => {
    enter(paying());
    const yearly = { interval: 'year' as const, unitAmount: 29000 };
    const scheduled = withSubscription({ ...yearly, scheduledChange: { planId: 'advance', interval: 'month', at: END } });
    const api = stubRoutes({
      [NEXT_INVOICE]: [200, { ...nextInvoice, lines: [] }],
      [PREVIEW]: [
        200,
        {
          effective: 'period_end',
          nextPaymentAt: END,
          subtotal: 8700,
          proration: 0,
          lines: [{ description: '3 × Diván Premium mensual', amount: 8700, proration: false }],
        },
      ],
      [CHANGE]: [200, scheduled],
      [DROP]: [200, withSubscription(yearly)],
      'GET /workspaces': [200, [paying()]],
    });
    const { user } = open(withSubscription(yearly));
    await user.click(panel().getByRole('button', { name: 'Cambiar de plan' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cambiar de plan' }));
    await user.click(dialog.getByRole('radio', { name: 'Mensual' }));
    expect(
      await dialog.findByText('Se aplicará al renovar, el 15/01/2027. Hasta entonces sigues con Premium y todas sus funciones.'),
    ).toBeTruthy();
    expect(dialog.getByText('Hoy no se cobra nada. El 15/01/2027 se cobrarán 87,00 € + IVA.')).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Confirmar cambio' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.requests.filter((r) => r.route === CHANGE)).toEqual([{ route: CHANGE, body: { planId: 'advance', interval: 'month' } }]);
    // Still the year until then, and the change said with its price.
    expect(panel().getByText('Premium · Anual')).toBeTruthy();
    expect(text(panel().getByTestId('scheduled-change'))).toBe(
      'El 15/01/2027 pasarás a Premium mensual (29,00 € + IVA por usuario al mes). Hasta entonces sigue tu plan actual.Anular el cambio',
    );
    await user.click(panel().getByRole('button', { name: 'Anular el cambio' }));
    await waitFor(() => expect(panel().queryByTestId('scheduled-change')).toBeNull());
    expect(api.count(DROP)).toBe(1);
    expect(panel().getByText('Premium · Anual')).toBeTruthy();
  });

  it('a refused change keeps the dialog open with the reason', async () => {
    enter(paying());
    stubRoutes({
      [NEXT_INVOICE]: [200, nextInvoice],
      [PREVIEW]: [200, { ...nextInvoice, subtotal: 84000, nextPaymentAt: '2026-12-03T10:00:00.000Z' }],
      [CHANGE]: [409, { code: 'therapist_already_cancelled', message: 'La renovación de este plan ya está desactivada.' }],
    });
    const { user } = open(withSubscription());
    await user.click(panel().getByRole('button', { name: 'Cambiar de plan' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cambiar de plan' }));
    await user.click(dialog.getByRole('radio', { name: /Anual/ }));
    expect(await dialog.findByText('Se aplica ahora: el periodo anual empieza hoy.')).toBeTruthy();
    expect(dialog.getByText('Se cobran ahora 840,00 € + IVA, descontado lo que no has usado del periodo actual.')).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Confirmar cambio' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('La renovación de este plan ya está desactivada.');
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('«Desactivar renovación» asks first, then turns the renewal off; «Reactivar renovación» turns it on again', async () => {
    enter(paying());
    const api = stubRoutes({
      [NEXT_INVOICE]: [200, nextInvoice],
      [CANCEL]: [200, withSubscription({ cancelAtPeriodEnd: true })],
      [REACTIVATE]: [200, withSubscription()],
      'GET /workspaces': [200, [paying()]],
    });
    const { user } = open(withSubscription());
    await panel().findByTestId('next-payment');
    await user.click(panel().getByRole('button', { name: 'Desactivar renovación' }));
    const dialog = within(await screen.findByRole('alertdialog', { name: '¿Desactivar la renovación?' }));
    expect(dialog.getByText(/Tu plan Premium sigue activo hasta el 15\/01\/2027/).textContent).toMatch(
      /No se borra nada.*los límites de Basic/,
    );
    expect(api.count(CANCEL)).toBe(0);
    await user.click(dialog.getByRole('button', { name: 'Desactivar renovación' }));

    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.count(CANCEL)).toBe(1);
    expect(panel().getByTestId('subscription-status').textContent).toBe('Renovación desactivada');
    expect(panel().getByText('Termina el 15/01/2027')).toBeTruthy();
    expect(panel().queryByRole('button', { name: 'Cambiar de plan' })).toBeNull();
    expect(panel().getByText('Para cambiar de plan, reactiva antes la renovación.')).toBeTruthy();
    // No next invoice once it ends: none is shown, none asked for.
    expect(panel().queryByTestId('next-payment')).toBeNull();
    const reactivate = panel().getByRole('button', { name: 'Reactivar renovación' });
    // The same button: focus came back to it.
    await waitFor(() => expect(document.activeElement).toBe(reactivate));

    await user.click(reactivate);
    await waitFor(() => expect(panel().getByTestId('subscription-status').textContent).toBe('Activa'));
    expect(api.count(REACTIVATE)).toBe(1);
    expect(panel().getByRole('button', { name: 'Desactivar renovación' })).toBeTruthy();
    expect(await panel().findByTestId('next-payment')).toBeTruthy();
  });

  it('a member who may not manage the plan sees it, its status and end, but no amounts or buttons, and asks no next invoice', () => {
    enter(paying({ isOwner: false, me: { memberId: 'm-2', isAdmin: false, permissions: [] } }));
    const api = stubRoutes({});
    open(withSubscription({ cancelAtPeriodEnd: true }, { canManage: false, mode: 'live' }));
    expect(panel().getByText('Premium · Mensual')).toBeTruthy();
    expect(panel().getByTestId('subscription-status').textContent).toBe('Renovación desactivada');
    expect(panel().getByText('Termina el 15/01/2027')).toBeTruthy();
    expect(panel().getByText('Los cambios de plan los decide quien administra el espacio')).toBeTruthy();
    expect(panel().queryByText(/usuarios ×/)).toBeNull();
    expect(panel().queryByRole('button')).toBeNull();
    expect(screen.queryByText(planTexts.testMode)).toBeNull();
    expect(api.requests).toEqual([]);
  });

  it('«Tarjetas y recibos» opens the provider’s portal (no card form in Diván); a refusal shows in place', async () => {
    enter(paying());
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const api = stubRoutes({
      [NEXT_INVOICE]: [200, nextInvoice],
      [PORTAL]: (_body, n) =>
        n === 1
          ? [503, { code: 'billing_unavailable', message: 'Los pagos de Diván no están disponibles en este servidor todavía.' }]
          : [200, { url: 'https://billing.stripe.test/p/session/test_1' }],
    });
    const { user } = open(withSubscription());
    await user.click(panel().getByRole('button', { name: 'Tarjetas y recibos' }));
    expect(await panel().findByText('Los pagos de Diván no están disponibles en este servidor todavía.')).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
    await user.click(panel().getByRole('button', { name: 'Tarjetas y recibos' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.stripe.test/p/session/test_1'));
    expect(api.count(PORTAL)).toBe(2);
  });

  it('says when the last payment is pending', () => {
    enter(paying());
    stubRoutes({ [NEXT_INVOICE]: [200, null] });
    open(withSubscription({ status: 'past_due' }));
    expect(panel().getByTestId('subscription-status').textContent).toBe('Pago pendiente');
    expect(panel().getByText(/No se ha podido cobrar el último pago/)).toBeTruthy();
  });
});
