// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { workspaceKey } from '@/lib/workspace-keys';
import { enter, leave, overviewOf, stubRoutes, WID, workspaceOf } from './gift-test-kit';
import { GiftRoute, giftTexts } from './gift-route';

// Whatever another file of this worker left (isolate: false): signed out, no workspace, at the start too.
beforeEach(() => leave());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  leave();
});

const CHECKOUT = `POST /workspaces/${WID}/gifts/checkout`;
const open = (overview = overviewOf(), route = '/gift') =>
  renderScreen(<GiftRoute />, { route, queries: [[workspaceKey(WID, 'plan-billing'), overview]] });
const textbox = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;

describe('/gift', () => {
  it('shows each option’s price before VAT and the total of the one chosen', async () => {
    enter();
    stubRoutes({});
    const { user } = open();
    expect(screen.getByRole('heading', { level: 1, name: 'Regalar Diván' })).toBeTruthy();
    const group = screen.getByRole('radiogroup', { name: '¿Cuántos meses de Premium?' });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((r) => r.closest('label')?.textContent)).toEqual([
      '1 mes29,00\u00a0€ + IVA',
      '3 meses87,00\u00a0€ + IVA',
      '6 meses174,00\u00a0€ + IVA',
      '12 meses348,00\u00a0€ + IVA',
    ]);
    expect((radios[0] as HTMLInputElement).checked).toBe(true);
    expect(screen.getByTestId('gift-total').textContent).toBe('1 mes de Premium para una persona29,00\u00a0€ + IVA');
    await user.click(radios[3]!);
    expect(screen.getByTestId('gift-total').textContent).toContain('348,00\u00a0€');
    // The IVA note: Diván's invoice goes to this workspace's billing data; valid a year.
    expect(
      screen.getByText(/El IVA se calcula con los datos de facturación de «Consulta Alba»: a ellos va la factura de Diván/),
    ).toBeTruthy();
    expect(screen.getByText(/Vale 12 meses desde la compra/)).toBeTruthy();
    expect(screen.getByTestId('test-mode').textContent).toBe(giftTexts.testMode);
  });

  it('«Continuar al pago» asks for a Checkout of what was chosen and typed, then sends the browser there', async () => {
    enter();
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const api = stubRoutes({ [CHECKOUT]: [200, { url: 'https://checkout.stripe.test/c/pay/cs_test_g1', sessionId: 'cs_test_g1' }] });
    const { user } = open();
    await user.click(screen.getByRole('radio', { name: /6 meses/ }));
    await user.type(textbox('Nombre de tu colega'), 'Marta');
    await user.type(textbox('Su email'), 'marta@ejemplo.com');
    await user.type(textbox('Mensaje'), '¡Disfrútalo!');
    expect(screen.getByText('12/300')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Continuar al pago' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/pay/cs_test_g1'));
    expect(api.requests).toEqual([
      { route: CHECKOUT, body: { months: 6, recipientName: 'Marta', recipientEmail: 'marta@ejemplo.com', message: '¡Disfrútalo!' } },
    ]);
    // Leaving: one Checkout at a time.
    expect((screen.getByRole('button', { name: 'Continuar al pago' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('sends only the months when nothing else is typed', async () => {
    enter();
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const api = stubRoutes({ [CHECKOUT]: [200, { url: 'https://pay.test/x', sessionId: 'cs_test_g2' }] });
    const { user } = open();
    await user.click(screen.getByRole('button', { name: 'Continuar al pago' }));
    await waitFor(() => expect(assign).toHaveBeenCalled());
    expect(api.requests[0]?.body).toEqual({ months: 1 });
  });

  it('without billing data, says so with the way to Ajustes › Pagos and keeps what was typed (also for when they come back)', async () => {
    enter();
    const api = stubRoutes({
      [CHECKOUT]: [
        409,
        {
          code: 'billing_details_missing',
          message: 'Antes de contratar, completa los datos de facturación: a ese nombre y NIF irán las facturas de Diván.',
        },
      ],
    });
    const { user, unmount } = open();
    await user.click(screen.getByRole('radio', { name: /12 meses/ }));
    await user.type(textbox('Nombre de tu colega'), 'Marta');
    await user.type(textbox('Mensaje'), 'Un año entero');
    await user.click(screen.getByRole('button', { name: 'Continuar al pago' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Antes de contratar, completa los datos de facturación');
    expect(
      within(alert)
        .getByRole('link', { name: /Ajustes › Pagos/ })
        .getAttribute('href'),
    ).toBe('/settings/payments');
    expect(textbox('Nombre de tu colega').value).toBe('Marta');
    expect(textbox('Mensaje').value).toBe('Un año entero');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: /12 meses/ }).checked).toBe(true);
    expect(api.count(CHECKOUT)).toBe(1);

    // Off to Ajustes › Pagos and back: the form is as it was left.
    unmount();
    open();
    expect(textbox('Nombre de tu colega').value).toBe('Marta');
    expect(textbox('Mensaje').value).toBe('Un año entero');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: /12 meses/ }).checked).toBe(true);
  });

  it('puts the server’s refusal of a field next to it, and a wrong email is said before asking', async () => {
    enter();
    const api = stubRoutes({
      [CHECKOUT]: [
        400,
        {
          code: 'invalid_argument',
          message: 'Revisa los datos',
          fields: [{ path: 'body.recipientName', message: 'Como mucho 100 caracteres' }],
        },
      ],
    });
    const { user } = open();
    await user.type(textbox('Su email'), 'marta@');
    await user.click(screen.getByRole('button', { name: 'Continuar al pago' }));
    expect((await screen.findByRole('alert')).textContent).toBe('El email no es válido');
    expect(api.server).not.toHaveBeenCalled();

    await user.clear(textbox('Su email'));
    await user.type(textbox('Nombre de tu colega'), 'Marta');
    await user.click(screen.getByRole('button', { name: 'Continuar al pago' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Como mucho 100 caracteres');
    expect(textbox('Nombre de tu colega').getAttribute('aria-invalid')).toBe('true');
  });

  it('back from a canceled payment: a gentle note, which can be dismissed', async () => {
    enter();
    stubRoutes({});
    const { user } = open(overviewOf(), '/gift?canceled=1');
    expect(screen.getByText(giftTexts.canceled)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Ocultar aviso' }));
    expect(screen.queryByText(giftTexts.canceled)).toBeNull();
  });

  it('a member who may not manage the workspace’s billing is told who can, and sees no form', () => {
    enter(workspaceOf({ isOwner: false, me: { memberId: 'm-2', isAdmin: false, permissions: [] } }));
    stubRoutes({});
    open(overviewOf({ canManage: false, mode: 'live' }));
    expect(screen.getByRole('heading', { name: giftTexts.notManager })).toBeTruthy();
    expect(screen.getByText(/los compra Alba o quien tenga permiso sobre la facturación del espacio/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Continuar al pago' })).toBeNull();
    expect(screen.queryByTestId('test-mode')).toBeNull();
  });

  it('a failed load says so and offers to retry', async () => {
    enter();
    stubRoutes({ [`GET /workspaces/${WID}/billing`]: [500, { code: 'internal_error', message: 'Error interno del servidor' }] });
    renderScreen(<GiftRoute />, { route: '/gift' });
    expect((await screen.findByRole('alert')).textContent).toContain('Error interno del servidor');
    expect(screen.getByRole('button', { name: /Reintentar/ })).toBeTruthy();
  });
});
