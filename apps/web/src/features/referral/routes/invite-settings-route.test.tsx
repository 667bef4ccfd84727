// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Referral, ReferralFriend, Workspace } from '@divan/core';
import { renderScreen, signIn } from '@/test/render';
import { placeholderWorkspace, useWorkspacesStore } from '@/stores/workspaces-store';
import { workspacesQueryKey } from '@/lib/workspace-keys';
import { InviteSettingsRoute } from './invite-settings-route';

const WID = 'b3d1e5d2-7f3b-4c11-9a2e-5b6d7e8f9a02';

const workspaceOf = (o: Partial<Workspace> = {}): Workspace => ({
  ...placeholderWorkspace,
  id: WID,
  name: 'Consulta Alba',
  isOwner: true,
  owner: { id: 'u-1', firstName: 'Alba', lastName: 'Ruiz' },
  me: { memberId: 'm-1', isAdmin: true, permissions: [] },
  ...o,
});

const referralOf = (o: Partial<Referral> = {}): Referral => ({
  code: 'K7M2QX9P',
  link: 'http://localhost:3000/sign-up?ref=K7M2QX9P',
  invitedBy: null,
  friends: [],
  earned: 0,
  ...o,
});

const friendOf = (o: Partial<ReferralFriend> = {}): ReferralFriend => ({
  id: '4a0f3c2e-1b2d-4e5f-8a9b-0c1d2e3f4a5b',
  firstName: 'Laura',
  email: 'l•••@ejemplo.es',
  joinedAt: '2026-11-03T10:00:00.000Z',
  status: 'joined',
  refusedReason: null,
  reward: null,
  ...o,
});

type Answer = [status: number, body: unknown];

/** `fetch`, answering each `METHOD /path` (under /api/v1); anything else is a 404 the test will notice. */
function stubRoutes(routes: Record<string, Answer | ((body: unknown) => Answer)>) {
  const requests: { route: string; body: unknown }[] = [];
  const server = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const route = `${init?.method ?? 'GET'} ${new URL(String(url), 'http://localhost').pathname.replace(/^\/api\/v1/, '')}`;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    requests.push({ route, body });
    const handler = routes[route];
    const [status, answer] = !handler
      ? [404, { code: 'not_found', message: `Sin respuesta para ${route}` }]
      : typeof handler === 'function'
        ? handler(body)
        : handler;
    return new Response(JSON.stringify(answer), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', server);
  return { requests, count: (route: string) => requests.filter((r) => r.route === route).length };
}

function open(referral: Referral | Answer, workspace = workspaceOf(), more: Record<string, Answer | ((body: unknown) => Answer)> = {}) {
  signIn();
  useWorkspacesStore.setState({ userId: 'u-1', workspaces: [workspace], currentId: workspace.id });
  const server = stubRoutes({ 'GET /me/referral': Array.isArray(referral) ? referral : [200, referral], ...more });
  return { server, ...renderScreen(<InviteSettingsRoute />, { route: '/settings/invite' }) };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  // Files share their modules: the next file's screens must not find this workspace.
  useWorkspacesStore.getState().reset();
});

describe('InviteSettingsRoute', () => {
  it('shows the link and the code read-only, and copies each with «Copiado» said in a status', async () => {
    const { user } = open(referralOf());
    const link = (await screen.findByRole('textbox', { name: 'Tu enlace de invitación' })) as HTMLInputElement;
    const code = screen.getByRole('textbox', { name: 'Tu código' }) as HTMLInputElement;
    expect(link.value).toBe('http://localhost:3000/sign-up?ref=K7M2QX9P');
    expect(link.readOnly).toBe(true);
    expect(code.value).toBe('K7M2QX9P');
    expect(code.readOnly).toBe(true);
    // The rules, in plain words.
    expect(screen.getByText(/Tu colega tiene 30 días más de prueba gratis/)).toBeTruthy();
    expect(screen.getByText(/un mes gratis de tu plan cuando tu colega pague su primera factura/)).toBeTruthy();

    // user-event's own clipboard stands in for the browser's.
    const write = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('button', { name: 'Copiar enlace' }));
    expect(write).toHaveBeenLastCalledWith('http://localhost:3000/sign-up?ref=K7M2QX9P');
    const statuses = () => screen.getAllByRole('status').map((s) => s.textContent);
    expect(statuses()).toContain('Copiado');

    await user.click(screen.getByRole('button', { name: 'Copiar código' }));
    expect(write).toHaveBeenLastCalledWith('K7M2QX9P');
    expect(statuses().filter((t) => t === 'Copiado')).toHaveLength(2);
  });

  it('when the browser refuses the clipboard, selects the code and says to copy it with Ctrl+C', async () => {
    const { user } = open(referralOf());
    const code = (await screen.findByRole('textbox', { name: 'Tu código' })) as HTMLInputElement;
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    await user.click(screen.getByRole('button', { name: 'Copiar código' }));
    expect(await screen.findByText(/Cópialo con Ctrl\+C/)).toBeTruthy();
    expect(document.activeElement).toBe(code);
    expect([code.selectionStart, code.selectionEnd]).toEqual([0, 'K7M2QX9P'.length]);
  });

  it('says so when nobody has joined yet, without a total', async () => {
    open(referralOf());
    expect(await screen.findByText('Aún no se ha unido nadie con tu código')).toBeTruthy();
    expect(screen.queryByTestId('referral-earned')).toBeNull();
    expect(screen.queryByRole('list', { name: 'Colegas que se han unido' })).toBeNull();
  });

  it('lists the colleagues: a rewarded one with the month off on the next invoice, one waiting for a plan, one still on trial', async () => {
    open(
      referralOf({
        friends: [
          friendOf({ status: 'rewarded', reward: { amount: 2900, state: 'applied' } }),
          friendOf({
            id: '5b1f3c2e-1b2d-4e5f-8a9b-0c1d2e3f4a5c',
            firstName: 'Marcos',
            email: 'm•••@consulta.es',
            joinedAt: '2026-11-20T09:00:00.000Z',
            status: 'rewarded',
            reward: { amount: 1900, state: 'waiting_plan' },
          }),
          friendOf({ id: '6c1f3c2e-1b2d-4e5f-8a9b-0c1d2e3f4a5d', firstName: 'Nuria', email: 'n•••@ejemplo.es' }),
        ],
        earned: 4800,
      }),
    );
    const list = await screen.findByRole('list', { name: 'Colegas que se han unido' });
    const [laura, marcos, nuria] = within(list).getAllByRole('listitem');
    expect(laura!.textContent).toContain('Laura');
    expect(laura!.textContent).toContain('Ha contratado');
    expect(within(laura!).getByText('l•••@ejemplo.es')).toBeTruthy();
    expect(within(laura!).getByText('se unió el 03/11/2026')).toBeTruthy();
    expect(within(laura!).getByText('29,00 €')).toBeTruthy();
    expect(within(laura!).getByText('En tu próxima factura')).toBeTruthy();
    expect(within(marcos!).getByText('19,00 €')).toBeTruthy();
    expect(within(marcos!).getByText('Cuando contrates un plan')).toBeTruthy();
    expect(nuria!.textContent).toContain('En prueba');
    expect(nuria!.textContent).not.toContain('€');
    expect(within(nuria!).getByText('Cuando pague su primera factura')).toBeTruthy();
    expect(screen.getByTestId('referral-earned').textContent?.replace(/\s/g, ' ')).toBe('Has ganado48,00 €');
  });

  it('a colleague who paid with the same card as the referrer: subscribed, and no month off, said why', async () => {
    open(
      referralOf({
        friends: [
          friendOf({ firstName: 'Carlota', email: 'c•••@otra.es', status: 'refused', refusedReason: 'same_card' }),
          friendOf({
            id: '5b1f3c2e-1b2d-4e5f-8a9b-0c1d2e3f4a5c',
            firstName: 'Marcos',
            status: 'rewarded',
            reward: { amount: 1900, state: 'applied' },
          }),
        ],
        earned: 1900,
      }),
    );
    const list = await screen.findByRole('list', { name: 'Colegas que se han unido' });
    const [carlota, marcos] = within(list).getAllByRole('listitem');
    expect(carlota!.textContent).toContain('Carlota');
    expect(carlota!.textContent).toContain('Ha contratado');
    expect(within(carlota!).getByText('Sin recompensa: pagó con la misma tarjeta que tú')).toBeTruthy();
    expect(carlota!.textContent).not.toContain('€');
    expect(within(marcos!).getByText('19,00 €')).toBeTruthy();
    expect(screen.getByTestId('referral-earned').textContent?.replace(/\s/g, ' ')).toBe('Has ganado19,00 €');
    // The rule says so before anyone tries.
    expect(screen.getByText(/paga con su propia tarjeta, no con la tuya/)).toBeTruthy();
  });

  it('takes a colleague’s code from the owner and shows the server’s refusal on the field', async () => {
    const refusal = 'Ese código es tuyo: compártelo con un colega para que lo use al registrarse.';
    const { user, server } = open(referralOf(), workspaceOf(), {
      [`POST /workspaces/${WID}/referral`]: [409, { code: 'referral_self', message: refusal }],
    });
    const box = (await screen.findByRole('textbox', { name: 'Código de invitación' })) as HTMLInputElement;
    await user.type(box, 'k7m2-qx9p');
    await user.click(screen.getByRole('button', { name: 'Usar código' }));
    expect((await screen.findByRole('alert')).textContent).toBe(refusal);
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.value).toBe('k7m2-qx9p');
    // What was typed is sent as a code: without the dash, in capitals.
    expect(server.requests.find((r) => r.route.startsWith('POST'))?.body).toEqual({ code: 'K7M2QX9P' });
  });

  it('refuses a code of the wrong shape before asking the server', async () => {
    const { user, server } = open(referralOf());
    await user.type(await screen.findByRole('textbox', { name: 'Código de invitación' }), 'ABC');
    await user.click(screen.getByRole('button', { name: 'Usar código' }));
    expect((await screen.findByRole('alert')).textContent).toBe('El código de invitación tiene 8 letras y números');
    expect(server.count(`POST /workspaces/${WID}/referral`)).toBe(0);
  });

  it('after a code is used, says until when the trial lasts and reads the workspaces and the referral again', async () => {
    let used = false;
    const { user, server, client } = open(referralOf(), workspaceOf(), {
      'GET /me/referral': () => [
        200,
        referralOf({ invitedBy: used ? { firstName: 'Laura', joinedAt: '2026-12-01T10:00:00.000Z' } : null }),
      ],
      'GET /workspaces': [200, [workspaceOf()]],
      [`POST /workspaces/${WID}/referral`]: () => {
        used = true;
        return [200, { freeTrialEnd: '2027-01-15T12:00:00.000Z' }];
      },
    });
    client.setQueryData(workspacesQueryKey, [workspaceOf()]);
    await user.type(await screen.findByRole('textbox', { name: 'Código de invitación' }), 'K7M2QX9P');
    await user.click(screen.getByRole('button', { name: 'Usar código' }));
    expect((await screen.findByText(/tu prueba gratis dura ahora hasta el/)).textContent).toContain('hasta el 15/01/2027');
    // The form gives way to who invited; the news stays.
    expect(await screen.findByText('Te invitó Laura el 01/12/2026.')).toBeTruthy();
    expect(screen.getByText(/tu prueba gratis dura ahora/)).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Código de invitación' })).toBeNull();
    expect(server.count('GET /me/referral')).toBe(2);
    // The shell's list of workspaces (and with it the trial notice) is read again.
    expect(client.getQueryState(workspacesQueryKey)?.isInvalidated).toBe(true);
  });

  it('explains that only the workspace’s owner may use a code', async () => {
    open(referralOf(), workspaceOf({ isOwner: false, me: { memberId: 'm-2', isAdmin: false, permissions: [] } }));
    expect(await screen.findByText(/solo puede usarlo quien es titular del espacio: en «Consulta Alba», Alba/)).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Código de invitación' })).toBeNull();
  });

  it('says who invited them, and offers no code form', async () => {
    open(referralOf({ invitedBy: { firstName: 'Laura', joinedAt: '2026-11-03T10:00:00.000Z' } }));
    expect(await screen.findByText('Te invitó Laura el 03/11/2026.')).toBeTruthy();
    expect(screen.queryByText('¿Te ha invitado un colega?')).toBeNull();
  });

  it('says what failed to load and tries again', async () => {
    let calls = 0;
    signIn();
    useWorkspacesStore.setState({ userId: 'u-1', workspaces: [workspaceOf()], currentId: WID });
    stubRoutes({
      'GET /me/referral': () =>
        ++calls === 1 ? [503, { code: 'service_unavailable', message: 'El servicio no está disponible.' }] : [200, referralOf()],
    });
    const { user } = renderScreen(<InviteSettingsRoute />, { route: '/settings/invite' });
    expect((await screen.findByRole('alert')).textContent).toContain('No se pudo cargar tu invitación.');
    await user.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByRole('textbox', { name: 'Tu código' })).toBeTruthy();
  });
});
