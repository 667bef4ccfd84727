// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BillingCheckoutStatus } from '@divan/core';
import { renderScreen } from '@/test/render';
import { useWorkspacesStore } from '@/stores/workspaces-store';
import { PaymentSuccess } from './payment-success-route';
import { enter, leave, stubRoutes, WID, workspaceOf } from './plans-test-kit';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  leave();
});

const STATUS = `GET /workspaces/${WID}/billing/checkout/cs_test_1`;
const route = `/plans/payment-success?session_id=cs_test_1&workspace=${WID}`;
const waiting: BillingCheckoutStatus = { status: 'complete', applied: false, planId: 'advance', interval: 'year' };
const applied: BillingCheckoutStatus = { ...waiting, applied: true };
const premium = workspaceOf({
  plan: { id: 'advance', periodEnd: '2027-12-03T12:00:00Z', renovationEnabled: true, freeTrialEnd: null, seats: 5, promptUpgrade: false },
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Nothing more is asked once the page has settled (a tick already scheduled as it changed may still go out). */
async function expectNoMoreQuestions(count: () => number) {
  await sleep(30);
  const asked = count();
  await sleep(80);
  expect(count()).toBe(asked);
}

describe('/plans/payment-success', () => {
  it('waits for the payment to be applied, never the redirect alone; then says so and refreshes the workspace', async () => {
    enter();
    // Paid, but the webhook arrives on the third question.
    const api = stubRoutes({ [STATUS]: (_, n) => [200, n < 3 ? waiting : applied], 'GET /workspaces': [200, [premium]] });
    renderScreen(<PaymentSuccess pollMs={10} timeoutMs={10_000} />, { route });
    expect(screen.getByRole('heading', { name: 'Confirmando el pago…' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Ya tienes Premium' }, { timeout: 3000 })).toBeTruthy();
    expect(api.count(STATUS)).toBe(3);
    expect(screen.getByText(/pago anual/)).toBeTruthy();
    expect(screen.getByText('Facturas automáticas y por lotes')).toBeTruthy();
    expect(screen.getByText('Pacientes activos ilimitados')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ir al inicio' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: 'Ir a facturación' }).getAttribute('href')).toBe('/billing');
    // The list of workspaces is read again: the new plan and features reach every screen.
    await waitFor(() => expect(useWorkspacesStore.getState().workspaces[0]?.plan.id).toBe('advance'));
    expect(api.count('GET /workspaces')).toBe(1);
    // And it stops asking.
    await expectNoMoreQuestions(() => api.count(STATUS));
  });

  it('after the wait, says the payment is being confirmed and offers to check again', async () => {
    enter();
    let done = false;
    const api = stubRoutes({ [STATUS]: () => [200, done ? applied : waiting], 'GET /workspaces': [200, [premium]] });
    const { user } = renderScreen(<PaymentSuccess pollMs={10} timeoutMs={150} />, { route });
    expect(await screen.findByRole('heading', { name: 'Estamos confirmando tu pago' }, { timeout: 3000 })).toBeTruthy();
    expect(
      screen.getByText(/No hace falta que pagues otra vez: en cuanto se confirme, tu plan se activará solo y te avisaremos/),
    ).toBeTruthy();
    await expectNoMoreQuestions(() => api.count(STATUS));

    done = true;
    await user.click(screen.getByRole('button', { name: 'Volver a comprobar' }));
    expect(await screen.findByRole('heading', { name: 'Ya tienes Premium' }, { timeout: 3000 })).toBeTruthy();
  });

  it('explains an expired Checkout (nothing charged) and links back to the plans', async () => {
    enter();
    stubRoutes({ [STATUS]: [200, { status: 'expired', applied: false, planId: null, interval: null }] });
    renderScreen(<PaymentSuccess pollMs={10} timeoutMs={10_000} />, { route });
    expect(await screen.findByRole('heading', { name: 'El pago no se ha completado' })).toBeTruthy();
    expect(screen.getByText(/no se ha cobrado nada/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Volver a los planes' }).getAttribute('href')).toBe('/plans');
  });

  it('a failed check shows the server’s reason, a retry and the way back', async () => {
    enter();
    stubRoutes({ [STATUS]: [404, { code: 'not_found', message: 'No encontramos ese pago' }] });
    renderScreen(<PaymentSuccess pollMs={10} timeoutMs={10_000} />, { route });
    expect(await screen.findByRole('heading', { name: 'No hemos podido comprobar el pago' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('No encontramos ese pago');
    expect(screen.getByRole('button', { name: /Reintentar/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Volver a los planes' }).getAttribute('href')).toBe('/plans');
  });

  it('without a session id, asks nothing and explains', async () => {
    enter();
    const api = stubRoutes({});
    renderScreen(<PaymentSuccess pollMs={10} timeoutMs={10_000} />, { route: '/plans/payment-success' });
    expect(screen.getByRole('heading', { name: 'No sabemos qué pago comprobar' })).toBeTruthy();
    expect(api.server).not.toHaveBeenCalled();
  });
});
