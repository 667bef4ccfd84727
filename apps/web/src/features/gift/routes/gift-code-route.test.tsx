// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import type { Workspace } from '@divan/core';
import { renderScreen } from '@/test/render';
import { useWorkspacesStore } from '@/stores/workspaces-store';
import { GiftCode } from './gift-code-route';
import { CODE, enter, FORMATTED, giftOf, leave, stubRoutes, WID, workspaceOf } from './gift-test-kit';

// Whatever another file of this worker left (isolate: false): signed out, no workspace, at the start too.
beforeEach(() => leave());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  leave();
});

const VIEW = `GET /gifts/${CODE}`;
const REDEEM = (wid: string) => `POST /workspaces/${wid}/gifts/redeem`;
const OTHER = 'c2d3e4f5-7f3b-4c11-9a2e-5b6d7e8f9a03';
// The link as printed in the mail (dashes, lower case) reads the same gift.
const open = (route = `/gift/${FORMATTED.toLowerCase()}`) =>
  renderScreen(
    <Routes>
      <Route path="/gift/:code" element={<GiftCode />} />
    </Routes>,
    { route },
  );
const extended = (w: Workspace, freeTrialEnd: string) => ({ ...w, plan: { ...w.plan, freeTrialEnd } });

describe('/gift/:code', () => {
  it('signed out: the gift, who gives it, its message and expiry, and the way to an account and back here', async () => {
    const api = stubRoutes({ [VIEW]: [200, giftOf()] });
    open();
    expect(screen.getByText('Cargando el regalo…', { selector: 'p' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Alba Ruiz te regala 3 meses de Diván Premium' })).toBeTruthy();
    expect(screen.getByText('Para Marta')).toBeTruthy();
    expect(screen.getByText('«¡Para que pruebes Diván con calma!»')).toBeTruthy();
    expect(screen.getByText('03/12/2027')).toBeTruthy();
    expect(screen.getByText(FORMATTED)).toBeTruthy();
    const back = encodeURIComponent(`/gift/${CODE}`);
    expect(screen.getByRole('link', { name: 'Crear cuenta y canjear' }).getAttribute('href')).toBe(`/sign-up?redirect=${back}`);
    expect(screen.getByRole('link', { name: 'Ya tengo cuenta' }).getAttribute('href')).toBe(`/sign-in?redirect=${back}`);
    expect(screen.queryByRole('button', { name: 'Canjear en este espacio' })).toBeNull();
    // Public: asked without a token.
    const [, init] = api.server.mock.calls[0]!;
    expect(new Headers(init?.headers).get('Authorization')).toBeNull();
  });

  it('signed in as the owner: redeems on the current workspace, says until when, and the workspaces are read again', async () => {
    const ws = enter();
    const api = stubRoutes({
      [VIEW]: [200, giftOf({ message: null, recipientName: null })],
      'GET /workspaces': (_, n) => [200, [n === 1 ? ws : extended(ws, '2027-03-12T10:00:00Z')]],
      [REDEEM(WID)]: [200, { months: 3, applied: 'trial', freeTrialEnd: '2027-03-12T10:00:00Z', planEnd: null, creditCents: null }],
    });
    const { user } = open();
    await screen.findByRole('heading', { name: 'Alba Ruiz te regala 3 meses de Diván Premium' });
    expect(screen.getByText(/Se canjeará en tu espacio/).textContent).toBe('Se canjeará en tu espacio Consulta Alba.');
    expect(screen.getByTestId('redeem-hint').textContent).toBe('Los 3 meses se suman a la prueba gratis del espacio, con todo Premium.');
    expect(screen.queryByRole('link', { name: 'Ya tengo cuenta' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Canjear en este espacio' }));
    expect(await screen.findByRole('heading', { name: 'Listo: tienes Premium hasta el 12/03/2027' })).toBeTruthy();
    expect(screen.getByText(/Hemos sumado 3 meses a la prueba gratis de/)).toBeTruthy();
    expect(api.requests.find((r) => r.route === REDEEM(WID))?.body).toEqual({ code: CODE });
    // The trial notice reads the store: it now has the new end.
    await waitFor(() => expect(useWorkspacesStore.getState().workspaces[0]?.plan.freeTrialEnd).toBe('2027-03-12T10:00:00Z'));
    expect(screen.getAllByRole('link', { name: 'Ir a Diván' }).map((l) => l.getAttribute('href'))).toEqual(['/', '/']);
  });

  it('signed in, not the owner: says only the owner can, and offers a workspace of their own', async () => {
    const shared = workspaceOf({
      isOwner: false,
      name: 'Centro Norte',
      owner: { id: 'u-9', firstName: 'Lucía', lastName: 'Mora' },
      me: { memberId: 'm-2', isAdmin: false, permissions: [] },
    });
    const own = workspaceOf({ id: OTHER, name: 'Mi consulta' });
    const own2 = workspaceOf({ id: 'd3e4f5a6-7f3b-4c11-9a2e-5b6d7e8f9a04', name: 'Segunda consulta' });
    enter(shared, own, own2);
    const api = stubRoutes({
      [VIEW]: [200, giftOf()],
      'GET /workspaces': [200, [shared, own, own2]],
      [REDEEM(OTHER)]: [409, { code: 'gift_workspace_subscribed', message: 'El último cobro del plan de este espacio está pendiente.' }],
    });
    const { user } = open();
    await screen.findByRole('heading', { name: /te regala/ });
    expect(screen.getByTestId('not-owner').textContent).toContain(
      'Solo quien es titular de un espacio puede canjear un regalo: en «Centro Norte» es Lucía.',
    );
    const select = screen.getByRole('combobox', { name: 'Espacio donde canjearlo' }) as HTMLSelectElement;
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Mi consulta', 'Segunda consulta']);
    expect(select.value).toBe(OTHER);
    await user.click(screen.getByRole('button', { name: 'Canjear en este espacio' }));
    expect((await screen.findByRole('alert')).textContent).toBe('El último cobro del plan de este espacio está pendiente.');
    expect(api.count(REDEEM(OTHER))).toBe(1);
    expect(api.count(REDEEM(WID))).toBe(0);
  });

  it('a gift used meanwhile (another tab, the colleague first): the refusal reads the gift again and the page shows it used', async () => {
    enter();
    const api = stubRoutes({
      [VIEW]: (_, n) => [200, n === 1 ? giftOf() : giftOf({ status: 'redeemed' })],
      'GET /workspaces': [200, [workspaceOf()]],
      [REDEEM(WID)]: [409, { code: 'gift_redeemed', message: 'Este regalo ya se canjeó: cada código vale una sola vez.' }],
    });
    const { user } = open();
    await screen.findByRole('heading', { name: /te regala/ });
    await user.click(screen.getByRole('button', { name: 'Canjear en este espacio' }));
    expect(await screen.findByRole('heading', { name: 'Este regalo ya se ha canjeado' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Canjear en este espacio' })).toBeNull();
    expect(api.count(VIEW)).toBe(2);
  });

  it('on a workspace whose plan renews: says the gift comes off the next invoice, and how much it took off', async () => {
    const ws = enter(
      workspaceOf({
        plan: {
          id: 'advance',
          periodEnd: '2027-01-20T10:00:00Z',
          renovationEnabled: true,
          freeTrialEnd: null,
          seats: 10,
          promptUpgrade: false,
        },
      }),
    );
    stubRoutes({
      [VIEW]: [200, giftOf()],
      'GET /workspaces': [200, [ws]],
      [REDEEM(WID)]: [200, { months: 3, applied: 'credit', freeTrialEnd: null, planEnd: null, creditCents: 8700 }],
    });
    const { user } = open();
    await screen.findByRole('heading', { name: /te regala/ });
    expect(screen.getByTestId('redeem-hint').textContent).toBe(
      'Este espacio ya paga un plan: lo que vale el regalo (3 meses de Premium) se descontará de su próxima factura, antes de IVA.',
    );
    await user.click(screen.getByRole('button', { name: 'Canjear en este espacio' }));
    const done = await screen.findByRole('status');
    expect(within(done).getByRole('heading').textContent).toBe('Listo: hemos descontado 87,00\u00a0€ de tu próxima factura');
    expect(done.textContent).toContain('irá en la próxima factura del plan de Consulta Alba como la línea «Tarjeta regalo», antes de IVA');
  });

  it('on a workspace whose plan ends without renewing: the months follow it as trial, until the date the server gave', async () => {
    const ws = enter(
      workspaceOf({
        plan: {
          id: 'basic',
          periodEnd: '2027-03-12T10:00:00Z',
          renovationEnabled: false,
          freeTrialEnd: null,
          seats: 10,
          promptUpgrade: false,
        },
      }),
    );
    stubRoutes({
      [VIEW]: [200, giftOf({ months: 1 })],
      'GET /workspaces': [200, [ws]],
      [REDEEM(WID)]: [
        200,
        { months: 1, applied: 'trial', freeTrialEnd: '2027-04-12T10:00:00Z', planEnd: '2027-03-12T10:00:00Z', creditCents: null },
      ],
    });
    const { user } = open();
    await screen.findByRole('heading', { name: /te regala 1 mes/ });
    expect(screen.getByTestId('redeem-hint').textContent).toBe(
      'El plan de este espacio termina el 12/03/2027 sin renovarse: después tendrá 1 mes de Premium como prueba gratis.',
    );
    await user.click(screen.getByRole('button', { name: 'Canjear en este espacio' }));
    expect(await screen.findByRole('heading', { name: 'Listo: tu prueba de Premium dura hasta el 12/04/2027' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain(
      'Tu plan de Consulta Alba sigue hasta el 12/03/2027, sin renovarse; después tendrás 1 mes de Diván Premium como prueba gratis',
    );
  });

  it('on a Team workspace: says the gift goes on another workspace', async () => {
    enter(
      workspaceOf({ plan: { id: 'team', periodEnd: null, renovationEnabled: true, freeTrialEnd: null, seats: 5, promptUpgrade: false } }),
    );
    stubRoutes({ [VIEW]: [200, giftOf()], 'GET /workspaces': [200, useWorkspacesStore.getState().workspaces] });
    open();
    expect((await screen.findByTestId('redeem-hint')).textContent).toBe(
      'El plan Team de este espacio lo gestiona el equipo de Diván: canjea el regalo en otro espacio tuyo.',
    );
  });

  it('signed in, owning no workspace: the way to create one', async () => {
    enter(workspaceOf({ isOwner: false, owner: { id: 'u-9', firstName: 'Lucía', lastName: 'Mora' } }));
    stubRoutes({ [VIEW]: [200, giftOf()], 'GET /workspaces': [200, useWorkspacesStore.getState().workspaces] });
    open();
    expect(await screen.findByText(/No eres titular de ningún espacio/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Crear un espacio' }).getAttribute('href')).toBe('/workspaces/create');
    expect(screen.queryByRole('button', { name: 'Canjear en este espacio' })).toBeNull();
  });

  it('a gift already redeemed', async () => {
    stubRoutes({ [VIEW]: [200, giftOf({ status: 'redeemed' })] });
    open();
    expect(await screen.findByRole('heading', { name: 'Este regalo ya se ha canjeado' })).toBeTruthy();
    expect(screen.getByText(/pregúntale a Alba Ruiz/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Crear cuenta y canjear' })).toBeNull();
  });

  it('a gift expired', async () => {
    stubRoutes({ [VIEW]: [200, giftOf({ status: 'expired' })] });
    open();
    expect(await screen.findByRole('heading', { name: 'Este regalo ha caducado' })).toBeTruthy();
    expect(screen.getByText(/Se podía canjear hasta el 03\/12\/2027/)).toBeTruthy();
  });

  it('a code that does not exist', async () => {
    stubRoutes({
      [`GET /gifts/NOPE`]: [404, { code: 'gift_not_found', message: 'Ese código de regalo no existe: revisa el enlace o el código.' }],
    });
    open('/gift/nope');
    expect(await screen.findByRole('heading', { name: 'Ese código de regalo no existe' })).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('another failure shows the server’s message and a retry', async () => {
    let up = false;
    stubRoutes({ [VIEW]: () => (up ? [200, giftOf()] : [429, { code: 'too_many_requests', message: 'Demasiadas peticiones' }]) });
    const { user } = open();
    expect(await screen.findByRole('heading', { name: 'No hemos podido cargar el regalo' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Demasiadas peticiones');
    up = true;
    await user.click(screen.getByRole('button', { name: /Reintentar/ }));
    expect(await screen.findByRole('heading', { name: /te regala 3 meses/ })).toBeTruthy();
  });
});
