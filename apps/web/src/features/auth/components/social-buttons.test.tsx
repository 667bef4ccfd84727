// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GuestApp } from '@/app/guest/guest-app';
import { renderScreen } from '@/test/render';
import { useAuthStore } from '@/stores/auth-store';

type Answer = [status: number, body: unknown];

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

const PROVIDERS = 'GET /realms/therapists/login/providers';
const AUTHORIZE = 'POST /realms/therapists/login/google/authorize';
const SIGN_UP = '/sign-up?ref=k7m2qx9p&redirect=%2Fworkspaces%2Fjoin%2Fabc';

beforeAll(() => import('@/features/auth/routes/sign-up'), 60_000);

async function open(route: string) {
  window.history.replaceState(null, '', route);
  const view = renderScreen(<GuestApp leave={vi.fn()} />);
  await screen.findByRole('heading', { level: 1 }, { timeout: 10_000 });
  return view;
}

const signedOut = () => useAuthStore.setState({ userId: null, accessToken: null, refreshToken: null, profile: null, loggedIn: false });
beforeEach(signedOut);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  localStorage.clear();
  signedOut();
});

describe('«Continuar con Google / Apple»', () => {
  it('on /sign-up, sends the colleague’s code of the link and remembers the sign-up before leaving', async () => {
    const requests = stubRoutes({
      [PROVIDERS]: [200, { providers: ['google', 'apple'] }],
      'GET /referrals/K7M2QX9P': [200, { firstName: 'Laura' }],
      // This very page with a fragment: jsdom "follows" it without a navigation it does not implement.
      [AUTHORIZE]: [200, { url: `${window.location.origin}${SIGN_UP}#proveedor` }],
    });
    const { user } = await open(SIGN_UP);
    await user.click(await screen.findByRole('button', { name: 'Continuar con Google' }));
    expect(screen.getByRole('button', { name: 'Continuar con Apple' })).toBeTruthy();
    await waitFor(() => expect(requests.find((r) => r.route === AUTHORIZE)?.body).toEqual({ form: 'signup', referralCode: 'K7M2QX9P' }));
    await waitFor(() => expect(sessionStorage.getItem('divan:social-intent')).toBeTruthy());
    expect(JSON.parse(sessionStorage.getItem('divan:social-intent')!)).toMatchObject({
      kind: 'signup',
      provider: 'google',
      redirect: '/workspaces/join/abc',
    });
  });

  it('on /sign-in, says why the provider could not be reached and lets the person try again', async () => {
    stubRoutes({
      [PROVIDERS]: [200, { providers: ['google'] }],
      [AUTHORIZE]: [503, { code: 'service_unavailable', message: 'El servicio no está disponible. Inténtalo de nuevo en unos minutos.' }],
    });
    const { user } = await open('/sign-in');
    const google = await screen.findByRole('button', { name: 'Continuar con Google' });
    expect(screen.queryByRole('button', { name: 'Continuar con Apple' })).toBeNull();
    await user.click(google);
    expect((await screen.findByRole('alert')).textContent).toBe('El servicio no está disponible. Inténtalo de nuevo en unos minutos.');
    expect(google.hasAttribute('disabled')).toBe(false);
    expect(sessionStorage.getItem('divan:social-intent')).toBeNull();
  });

  it('draws nothing when no provider is configured, or the list cannot be read', async () => {
    for (const answer of [
      [200, { providers: [] }],
      [500, { code: 'internal_error', message: 'Error interno del servidor' }],
    ] as Answer[]) {
      const requests = stubRoutes({ [PROVIDERS]: answer });
      await open('/sign-in');
      await waitFor(() => expect(requests.some((r) => r.route === PROVIDERS)).toBe(true));
      await new Promise((r) => setTimeout(r, 20));
      expect(screen.queryByRole('button', { name: /Continuar con/ })).toBeNull();
      expect(screen.queryByText('o con tu email')).toBeNull();
      expect(screen.getByRole('button', { name: 'Continuar' })).toBeTruthy();
      cleanup();
      vi.unstubAllGlobals();
    }
  });
});
