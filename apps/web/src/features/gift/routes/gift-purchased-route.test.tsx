// @vitest-environment jsdom
import { StrictMode } from 'react';
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GiftPurchase } from '@divan/core';
import { renderScreen } from '@/test/render';
import { workspaceKey } from '@/lib/workspace-keys';
import { draftOf, keepDraft } from '../utils/gift-storage';
import { GiftPurchased } from './gift-purchased-route';
import { CODE, enter, FORMATTED, leave, purchaseOf, stubRoutes, WID } from './gift-test-kit';

// Whatever another file of this worker left (isolate: false): signed out, no workspace, at the start too.
beforeEach(() => leave());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  leave();
});

const STATUS = `GET /workspaces/${WID}/gifts/checkout/cs_test_g1`;
const route = `/gift/purchased?session_id=cs_test_g1&workspace=${WID}`;
const LINK = `http://localhost:3000/gift/${CODE}`;
const paid = purchaseOf({ status: 'paid', expiresAt: '2027-12-03T12:00:00Z' });
const withCode: GiftPurchase = { ...paid, code: CODE, link: LINK };
const shownBefore: GiftPurchase = { ...paid, revealed: true };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Nothing more is asked once the page has settled (a tick already scheduled as it changed may still go out). */
async function expectNoMoreQuestions(count: () => number) {
  await sleep(30);
  const asked = count();
  await sleep(80);
  expect(count()).toBe(asked);
}

const page = (o: { timeoutMs?: number } = {}) => (
  <StrictMode>
    <GiftPurchased pollMs={10} timeoutMs={o.timeoutMs ?? 10_000} />
  </StrictMode>
);

describe('/gift/purchased', () => {
  it('waits for the payment, shows the code the one time the server gives it, and keeps it when a later read has none', async () => {
    enter();
    keepDraft(WID, { months: 3, recipientName: 'Marta', recipientEmail: '', message: '' });
    // Paid on the third question (with the code); every later read: paid, code null.
    const api = stubRoutes({ [STATUS]: (_, n) => [200, n < 3 ? purchaseOf() : n === 3 ? withCode : shownBefore] });
    const { client, unmount } = renderScreen(page(), { route });
    expect(screen.getByRole('heading', { name: 'Confirmando el pago…' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Tu regalo está listo' }, { timeout: 3000 })).toBeTruthy();
    expect(api.count(STATUS)).toBe(3);
    expect(screen.getByTestId('gift-code').textContent).toBe(FORMATTED);
    expect((screen.getByRole('textbox', { name: 'Enlace para canjearlo' }) as HTMLInputElement).value).toBe(LINK);
    expect(screen.getByText('Guárdalo: solo te lo mostramos esta vez (también te lo hemos enviado por email).')).toBeTruthy();
    expect(screen.getByText(/3 meses de Diván Premium para marta@ejemplo.com/)).toBeTruthy();
    const amounts = screen.getByTestId('gift-amounts').textContent;
    expect(amounts).toBe('Importe87,00\u00a0€IVA18,27\u00a0€Total pagado105,27\u00a0€');
    expect(screen.getByText(/Se puede canjear hasta el 03\/12\/2027/)).toBeTruthy();
    // It stops asking, and the buy form's draft is forgotten.
    await expectNoMoreQuestions(() => api.count(STATUS));
    expect(draftOf(WID)).toBeNull();

    // A refetch's answer without the code (the server shows it once) changes nothing on screen.
    act(() => client.setQueryData(workspaceKey(WID, 'gift-purchase', 'cs_test_g1'), shownBefore));
    expect(screen.getByTestId('gift-code').textContent).toBe(FORMATTED);

    // A reload in the same tab: the server has no code to give any more, the tab still shows it.
    unmount();
    renderScreen(page(), { route });
    expect(screen.getByTestId('gift-code').textContent).toBe(FORMATTED);
    await sleep(50);
    expect(api.count(STATUS)).toBe(3);
  });

  it('copies the code and the link, and says so; when the clipboard is refused, selects the text', async () => {
    enter();
    stubRoutes({ [STATUS]: [200, withCode] });
    const { user } = renderScreen(page(), { route });
    await screen.findByTestId('gift-code');
    const write = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('button', { name: 'Copiar código' }));
    expect(write).toHaveBeenLastCalledWith(FORMATTED);
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain('Copiado');
    await user.click(screen.getByRole('button', { name: 'Copiar enlace' }));
    expect(write).toHaveBeenLastCalledWith(LINK);

    write.mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    await user.click(screen.getByRole('button', { name: 'Copiar enlace' }));
    expect(await screen.findByText(/Cópialo con Ctrl\+C/)).toBeTruthy();
    const link = screen.getByRole('textbox', { name: 'Enlace para canjearlo' }) as HTMLInputElement;
    expect(document.activeElement).toBe(link);
    expect([link.selectionStart, link.selectionEnd]).toEqual([0, LINK.length]);
    await user.click(screen.getByRole('button', { name: 'Copiar código' }));
    expect(window.getSelection()?.toString()).toBe(FORMATTED);
  });

  it('a code already shown (another tab, another device) is not shown again: it is in the mail', async () => {
    enter();
    stubRoutes({ [STATUS]: [200, shownBefore] });
    renderScreen(page(), { route });
    expect(await screen.findByRole('heading', { name: 'Tu regalo está pagado' })).toBeTruthy();
    expect(screen.getByText(/El código ya se mostró una vez.*lo tienes en tu email, y tu colega en el suyo/)).toBeTruthy();
    expect(screen.queryByTestId('gift-code')).toBeNull();
    expect(screen.getByTestId('gift-amounts').textContent).toContain('105,27');
  });

  it('after the wait, says the payment is being confirmed and offers to check again', async () => {
    enter();
    let done = false;
    const api = stubRoutes({ [STATUS]: () => [200, done ? withCode : purchaseOf()] });
    const { user } = renderScreen(page({ timeoutMs: 150 }), { route });
    expect(await screen.findByRole('heading', { name: 'Estamos confirmando tu pago' }, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByText(/No hace falta que pagues otra vez/)).toBeTruthy();
    await expectNoMoreQuestions(() => api.count(STATUS));
    done = true;
    await user.click(screen.getByRole('button', { name: 'Volver a comprobar' }));
    expect(await screen.findByTestId('gift-code', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('explains an expired Checkout (nothing charged)', async () => {
    enter();
    stubRoutes({ [STATUS]: [200, purchaseOf({ status: 'expired' })] });
    renderScreen(page(), { route });
    expect(await screen.findByRole('heading', { name: 'El pago no se ha completado' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Volver a Regalar Diván' }).getAttribute('href')).toBe('/gift');
  });

  it('a failed check shows the server’s reason and a retry', async () => {
    enter();
    stubRoutes({
      [STATUS]: [404, { code: 'gift_checkout_not_found', message: 'No encontramos esa compra de regalo.' }],
    });
    renderScreen(page(), { route });
    expect(await screen.findByRole('heading', { name: 'No hemos podido comprobar el pago' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('No encontramos esa compra de regalo.');
    expect(screen.getByRole('button', { name: /Reintentar/ })).toBeTruthy();
  });

  it('without a session id, asks nothing and explains', () => {
    enter();
    const api = stubRoutes({});
    renderScreen(page(), { route: '/gift/purchased' });
    expect(screen.getByRole('heading', { name: 'No sabemos qué compra comprobar' })).toBeTruthy();
    expect(api.server).not.toHaveBeenCalled();
  });
});
