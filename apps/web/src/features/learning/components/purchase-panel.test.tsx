// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { enter, leave, stubRoutes, VID, videoOf, WID, workspaceOf } from '../learning-test-kit';
import { PLAN_SETTINGS, PurchasePanel, purchaseTexts } from './purchase-panel';

beforeEach(() => leave());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  leave();
});

const BUY = `POST /workspaces/${WID}/learning/videos/${VID}/purchase`;
const purchase = {
  id: '9d7c1b2a-3e4f-4a5b-8c9d-0e1f2a3b4c5d',
  videoId: VID,
  title: 'El apego en la consulta',
  baseCents: 2479,
  vatCents: 521,
  totalCents: 3000,
  purchasedAt: '2026-12-07T10:00:00Z',
  refundedAt: null,
  invoiceNumber: 'DV-2026-0042',
  invoiceId: null,
};

function open({ decides = true, onPurchased = vi.fn() } = {}) {
  const ws = enter();
  const view = renderScreen(<PurchasePanel video={videoOf()} workspace={ws} decides={decides} onPurchased={onPurchased} />);
  return { ...view, onPurchased };
}
const pay = () => screen.getByRole('button', { name: 'Continuar y pagar' });

describe('the purchase form', () => {
  it('shows the price with IVA, says the access is unlimited and what «Continuar y pagar» charges', () => {
    stubRoutes({});
    open();
    const form = screen.getByRole('form', { name: purchaseTexts.title });
    expect(screen.getByTestId('learning-price').textContent).toBe('30,00\u00a0€ IVA incluido');
    expect(
      within(form)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      purchaseTexts.unlimited,
      'Al pulsar «Continuar y pagar» se cobrarán 30,00\u00a0€ al método de pago configurado en «Consulta Alba».',
    ]);
    expect(pay()).toBeTruthy();
  });

  it('shows what the workspace’s billing data charge: base + IVA = total, or the base with the reverse charge’s legend', () => {
    stubRoutes({});
    const ws = enter();
    const charge = { baseCents: 2479, vatCents: 521, totalCents: 3000, vatRate: 21, taxCase: 'spain' as const, legend: null };
    renderScreen(<PurchasePanel video={videoOf({ charge })} workspace={ws} decides onPurchased={vi.fn()} />);
    expect(screen.getByTestId('learning-price').textContent).toBe('30,00\u00a0€ IVA incluido');
    expect(screen.getByTestId('learning-charge').textContent).toBe('24,79\u00a0€ + IVA 21\u00a0% (5,21\u00a0€) = 30,00\u00a0€');
    const reverse = {
      ...charge,
      vatCents: 0,
      totalCents: 2479,
      vatRate: 0,
      taxCase: 'reverse_charge' as const,
      legend: 'Inversión del sujeto pasivo',
    };
    cleanup();
    renderScreen(<PurchasePanel video={videoOf({ charge: reverse })} workspace={ws} decides onPurchased={vi.fn()} />);
    expect(screen.getByTestId('learning-price').textContent).toBe('24,79\u00a0€ sin IVA');
    expect(screen.getByTestId('learning-charge').textContent).toBe('24,79\u00a0€ sin IVA · Inversión del sujeto pasivo');
    expect(screen.getByText(/se cobrarán 24,79\s€ al método de pago/)).toBeTruthy();
    // No billing data (null) or not asked: the price with IVA, nothing more.
    cleanup();
    renderScreen(<PurchasePanel video={videoOf({ charge: null })} workspace={ws} decides onPurchased={vi.fn()} />);
    expect(screen.getByTestId('learning-price').textContent).toBe('30,00\u00a0€ IVA incluido');
    expect(screen.queryByTestId('learning-charge')).toBeNull();
  });

  it('buys with the active workspace (no body) and says so', async () => {
    const api = stubRoutes({ [BUY]: [200, { status: 'purchased', purchase }] });
    const { user, onPurchased } = open();
    await user.click(pay());
    await waitFor(() => expect(onPurchased).toHaveBeenCalledTimes(1));
    expect(api.of(BUY)).toHaveLength(1);
    expect(api.of(BUY)[0]!.body).toBeUndefined();
  });

  it('when the bank asks for authentication, goes to the provider’s page and keeps the button busy', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    stubRoutes({ [BUY]: [200, { status: 'authenticate', url: 'https://checkout.stripe.test/c/pay/cs_l1' }] });
    const { user, onPurchased } = open();
    await user.click(pay());
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/pay/cs_l1'));
    expect(onPurchased).not.toHaveBeenCalled();
    expect((pay() as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(purchaseTexts.leaving)).toBeTruthy();
  });

  it('already bought (another tab): says it can be watched without limit', async () => {
    stubRoutes({
      [BUY]: [409, { code: 'learning_already_purchased', message: 'Ya compraste este vídeo: puedes verlo sin límite cuando quieras.' }],
    });
    const { user, onPurchased } = open();
    await user.click(pay());
    expect(await screen.findByText('Ya compraste este vídeo: puedes verlo sin límite cuando quieras.')).toBeTruthy();
    expect(onPurchased).not.toHaveBeenCalled();
  });

  it('a refused charge says why, with the way to the payment method in Ajustes › Plan, and can be tried again', async () => {
    const api = stubRoutes({
      [BUY]: [
        402,
        { code: 'learning_purchase_failed', message: 'No se pudo cobrar la compra: revisa tu método de pago en Ajustes › Plan.' },
      ],
    });
    const { user } = open();
    await user.click(pay());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('No se pudo cobrar la compra: revisa tu método de pago en Ajustes › Plan.');
    expect(within(alert).getByRole('link', { name: purchaseTexts.planLink }).getAttribute('href')).toBe(PLAN_SETTINGS);
    expect(PLAN_SETTINGS).toBe('/settings/workspace/plan');
    await user.click(pay());
    await waitFor(() => expect(api.count(BUY)).toBe(2));
  });

  it('a member who may not pay for the workspace is told who can (before asking, and if the server refuses)', async () => {
    stubRoutes({});
    enter(workspaceOf({ isOwner: false, me: { memberId: 'm-2', isAdmin: false, permissions: [] } }));
    renderScreen(<PurchasePanel video={videoOf()} workspace={workspaceOf()} decides={false} onPurchased={vi.fn()} />);
    expect(screen.getByText(purchaseTexts.notManager)).toBeTruthy();
    expect(screen.getByText(/puede hacerla Alba o quien tenga permiso sobre la facturación del espacio/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Continuar y pagar' })).toBeNull();
    cleanup();

    stubRoutes({ [BUY]: [403, { code: 'access_denied', message: 'No tienes permiso para hacer esto.' }] });
    const { user } = open();
    await user.click(pay());
    expect((await screen.findByRole('alert')).textContent).toContain(purchaseTexts.notManager);
    expect(screen.queryByRole('button', { name: 'Continuar y pagar' })).toBeNull();
  });
});
