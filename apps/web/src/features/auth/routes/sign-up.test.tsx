// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GuestApp } from '@/app/guest/guest-app';
import { renderScreen } from '@/test/render';
import { useAuthStore } from '@/stores/auth-store';

type Answer = [status: number, body: unknown];

/** `fetch`, answering each `METHOD /path` (under /api/v1); anything else is a 404 the test will notice. */
function stubRoutes(routes: Record<string, Answer>) {
  const requests: { route: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      const route = `${init?.method ?? 'GET'} ${new URL(String(url), 'http://localhost').pathname.replace(/^\/api\/v1/, '')}`;
      requests.push({ route, body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined });
      const [status, answer] = routes[route] ?? [404, { code: 'not_found', message: `Sin respuesta para ${route}` }];
      return new Response(JSON.stringify(answer), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return requests;
}

const NOT_FOUND = { code: 'referral_code_not_found', message: 'Ese código de invitación no existe: revisa que esté bien escrito.' };
const SIGN_UP = 'POST /realms/therapists/users';

const box = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const password = (name: string) => screen.getByLabelText(name) as HTMLInputElement;

// The screens the guest app loads on demand, imported (and so transformed) before any test waits for one:
// in the whole web run, on a busy machine, the first import alone outlasted a test's wait for its heading.
beforeAll(() => Promise.all([import('@/features/auth/routes/sign-up'), import('@/features/auth/routes/forgot-password')]), 60_000);

/** The signed-out pages as a visitor opens them: the guest app (no router) at `route`. */
async function openSignUp(route: string) {
  window.history.replaceState(null, '', route);
  const leave = vi.fn();
  const view = renderScreen(<GuestApp leave={leave} />);
  await screen.findByRole('heading', { level: 1 }, { timeout: 10_000 });
  return { ...view, leave };
}

async function fillAccount(user: Awaited<ReturnType<typeof openSignUp>>['user']) {
  await user.type(box('Nombre'), 'Marta');
  await user.type(box('Email'), 'marta@consulta.example');
  await user.type(password('Contraseña'), 'Divan-2026!');
  await user.type(password('Repite la contraseña'), 'Divan-2026!');
}

const signedOut = () => useAuthStore.setState({ userId: null, accessToken: null, refreshToken: null, profile: null, loggedIn: false });

// Files share their worker's modules (vitest.config.ts: no isolation), so a file before this one may have left
// the auth store signed in — and a signed-in visitor is handed over to the app, never shown these pages.
beforeEach(signedOut);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  signedOut();
});

describe('SignUpRoute: a colleague’s invitation code', () => {
  it('with ?ref, fills in the code, greets who invites and sends the code with the account', async () => {
    const requests = stubRoutes({
      'GET /referrals/K7M2QX9P': [200, { firstName: 'Laura' }],
      [SIGN_UP]: [201, { userId: '0b8c2b9e-6f0e-4a34-9d1c-2f3a4b5c6d7e' }],
    });
    const { user } = await openSignUp('/sign-up?ref=k7m2qx9p&redirect=%2Fworkspaces%2Fjoin%2Fabc');
    expect(box('Código de invitación').value).toBe('K7M2QX9P');
    expect((await screen.findByText(/te ha invitado a Diván/)).closest('[role="status"]')?.textContent).toBe(
      'Laura te ha invitado a Diván: tendrás 30 días más de prueba gratis.',
    );
    // The way to sign in keeps where to go afterwards and the code.
    expect(screen.getByRole('link', { name: 'Inicia sesión' }).getAttribute('href')).toBe(
      '/sign-in?redirect=%2Fworkspaces%2Fjoin%2Fabc&ref=K7M2QX9P',
    );
    await fillAccount(user);
    await user.click(screen.getByRole('button', { name: 'Crear cuenta' }));
    expect(await screen.findByText('marta@consulta.example', { exact: false })).toBeTruthy();
    expect(requests.find((r) => r.route === SIGN_UP)?.body).toEqual({
      firstName: 'Marta',
      email: 'marta@consulta.example',
      password: 'Divan-2026!',
      referralCode: 'K7M2QX9P',
    });
  });

  it('with an unknown ?ref, says so gently and leaves the field to fix or clear; cleared, no code is sent', async () => {
    const requests = stubRoutes({
      'GET /referrals/ABCDEFGH': [404, NOT_FOUND],
      [SIGN_UP]: [201, { userId: '0b8c2b9e-6f0e-4a34-9d1c-2f3a4b5c6d7e' }],
    });
    const { user } = await openSignUp('/sign-up?ref=ABCDEFGH');
    expect(await screen.findByText(/Ese código de invitación no existe/)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    const code = box('Código de invitación');
    expect(code.readOnly).toBe(false);
    await user.clear(code);
    await fillAccount(user);
    await user.click(screen.getByRole('button', { name: 'Crear cuenta' }));
    await waitFor(() => expect(requests.some((r) => r.route === SIGN_UP)).toBe(true));
    expect(requests.find((r) => r.route === SIGN_UP)?.body).not.toHaveProperty('referralCode');
  });

  it('shows the server’s refusal of the code on its field and keeps everything typed', async () => {
    const requests = stubRoutes({
      'GET /referrals/K7M2QX9P': [200, { firstName: 'Laura' }],
      [SIGN_UP]: [404, { ...NOT_FOUND, fields: [{ path: 'referralCode', message: NOT_FOUND.message }] }],
    });
    const { user } = await openSignUp('/sign-up?ref=K7M2QX9P');
    await fillAccount(user);
    await user.click(screen.getByRole('button', { name: 'Crear cuenta' }));
    const code = box('Código de invitación');
    await waitFor(() => expect(code.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByRole('alert').textContent).toBe(NOT_FOUND.message);
    expect(document.activeElement).toBe(code);
    expect([box('Nombre').value, box('Email').value, password('Contraseña').value, password('Repite la contraseña').value]).toEqual([
      'Marta',
      'marta@consulta.example',
      'Divan-2026!',
      'Divan-2026!',
    ]);
    expect(code.value).toBe('K7M2QX9P');
    expect(requests.filter((r) => r.route === SIGN_UP)).toHaveLength(1);
  });

  it('without ?ref, keeps the field behind «¿Tienes un código de invitación?» and sends no code', async () => {
    const requests = stubRoutes({ [SIGN_UP]: [201, { userId: '0b8c2b9e-6f0e-4a34-9d1c-2f3a4b5c6d7e' }] });
    const { user } = await openSignUp('/sign-up');
    expect(screen.queryByRole('textbox', { name: 'Código de invitación' })).toBeNull();
    await fillAccount(user);
    await user.click(screen.getByRole('button', { name: 'Crear cuenta' }));
    await waitFor(() => expect(requests.some((r) => r.route === SIGN_UP)).toBe(true));
    expect(requests.find((r) => r.route === SIGN_UP)?.body).not.toHaveProperty('referralCode');
    expect(requests.some((r) => r.route.startsWith('GET /referrals'))).toBe(false);
  });

  it('opens the field on request, puts the caret there, and greets who invites once a whole code is typed', async () => {
    stubRoutes({ 'GET /referrals/K7M2QX9P': [200, { firstName: 'Laura' }] });
    const { user } = await openSignUp('/sign-up');
    await user.click(screen.getByRole('button', { name: '¿Tienes un código de invitación?' }));
    const code = box('Código de invitación');
    expect(document.activeElement).toBe(code);
    await user.type(code, 'k7m2 qx9p');
    await user.tab();
    expect(await screen.findByText(/te ha invitado a Diván/)).toBeTruthy();
  });

  it('a half-typed code is refused on its field before anything is sent', async () => {
    const requests = stubRoutes({});
    const { user } = await openSignUp('/sign-up');
    await user.click(screen.getByRole('button', { name: '¿Tienes un código de invitación?' }));
    await user.type(box('Código de invitación'), 'ABC');
    await fillAccount(user);
    await user.click(screen.getByRole('button', { name: 'Crear cuenta' }));
    expect((await screen.findByRole('alert')).textContent).toBe('El código de invitación tiene 8 letras y números');
    expect(requests.some((r) => r.route === SIGN_UP)).toBe(false);
  });

  it('sign-in’s link to sign-up keeps the code', async () => {
    stubRoutes({});
    await openSignUp('/sign-in?ref=K7M2QX9P');
    expect(screen.getByRole('link', { name: 'Crea una gratis' }).getAttribute('href')).toBe('/sign-up?ref=K7M2QX9P');
  });
});

describe('GuestApp: the signed-out pages without the router', () => {
  it('follows its links in place, and Back returns to the page before', async () => {
    stubRoutes({ 'GET /referrals/K7M2QX9P': [200, { firstName: 'Laura' }] });
    const { user, leave } = await openSignUp('/sign-in?ref=K7M2QX9P');
    await user.click(screen.getByRole('link', { name: 'Crea una gratis' }));
    expect(await screen.findByRole('heading', { name: 'Crea tu cuenta' }, { timeout: 10_000 })).toBeTruthy();
    expect(window.location.pathname + window.location.search).toBe('/sign-up?ref=K7M2QX9P');
    expect(box('Código de invitación').value).toBe('K7M2QX9P');
    await user.click(screen.getByRole('link', { name: 'Inicia sesión' }));
    await user.click(screen.getByRole('link', { name: '¿La has olvidado?' }));
    expect(await screen.findByRole('heading', { name: 'Recupera tu contraseña' }, { timeout: 10_000 })).toBeTruthy();
    act(() => {
      window.history.back();
    });
    expect(await screen.findByRole('heading', { name: 'Inicia sesión' })).toBeTruthy();
    expect(leave).not.toHaveBeenCalled();
  });

  /** Opens sign-in with `?redirect=`, signs in (as another tab would), and waits for the hand-over. */
  async function signInWithRedirect(redirect: string) {
    stubRoutes({});
    const { leave } = await openSignUp(`/sign-in?redirect=${encodeURIComponent(redirect)}`);
    act(() => {
      useAuthStore.setState({ userId: 'u-1', accessToken: 'a', refreshToken: 'r', loggedIn: true });
    });
    await waitFor(() => expect(leave).toHaveBeenCalledTimes(1));
  }

  it('hands over to the app once signed in, at the page it was asked to return to', async () => {
    await signInWithRedirect('/workspaces/join/abc');
    expect(window.location.pathname).toBe('/workspaces/join/abc');
  });

  it('refuses to hand over to another site', async () => {
    await signInWithRedirect('//malo.example/x');
    expect(window.location.href).toBe(`${window.location.origin}/`);
  });
});
