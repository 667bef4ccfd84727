// @vitest-environment jsdom
import { StrictMode } from 'react';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '@divan/core';
import { renderScreen, signIn } from '@/test/render';
import { useAuthStore } from '@/stores/auth-store';
import { rememberSocialIntent } from '../utils/social-intent';
import { SocialCallbackRoute } from './social-callback';

type Answer = [status: number, body: unknown];

/** `fetch`, answering each `METHOD /path` (under /api/v1) and recording what was asked. */
function stubRoutes(routes: Record<string, Answer>) {
  const requests: { route: string; body: Record<string, unknown> | undefined }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      const route = `${init?.method ?? 'GET'} ${new URL(String(url), 'http://localhost').pathname.replace(/^\/api\/v1/, '')}`;
      requests.push({ route, body: typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined });
      const [status, answer] = routes[route] ?? [404, { code: 'not_found', message: `Sin respuesta para ${route}` }];
      return new Response(JSON.stringify(answer), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return requests;
}

const profile = { id: '0b8c2b9e-6f0e-4a34-9d1c-2f3a4b5c6d7e', email: 'marta@consulta.example', firstName: 'Marta' } as unknown as Profile;
const tokens = { userId: profile.id, accessToken: 'a.b.c', refreshToken: 'r-1', profile };
const LOGIN = 'POST /realms/therapists/login/google';
const LINK = 'POST /realms/therapists/login/google/link';
const LINK_ID = '5f1c2b9e-6f0e-4a34-9d1c-2f3a4b5c6d7e';

/** The callback as the browser comes back to it, under StrictMode (its double effect must not post twice). */
function openCallback(route: string) {
  return renderScreen(
    <StrictMode>
      <Routes>
        <Route path="/auth/:provider/callback" element={<SocialCallbackRoute />} />
        <Route path="/" element={<p>Inicio</p>} />
        <Route path="/workspaces/join/abc" element={<p>Invitación</p>} />
        <Route path="/sign-in" element={<p>Página de inicio de sesión</p>} />
        <Route path="/settings/security" element={<p>Ajustes de seguridad</p>} />
      </Routes>
    </StrictMode>,
    { route },
  );
}

const signedOut = () => useAuthStore.setState({ userId: null, accessToken: null, refreshToken: null, profile: null, loggedIn: false });
beforeEach(signedOut);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  signedOut();
});

describe('SocialCallbackRoute', () => {
  it('signs in once with the code and state, as the form it started from, and goes where it was heading', async () => {
    rememberSocialIntent({ kind: 'signup', provider: 'google', redirect: '/workspaces/join/abc' });
    const requests = stubRoutes({ [LOGIN]: [200, { kind: 'signed_in', created: true, ...tokens }] });
    openCallback('/auth/google/callback?code=c-123&state=s-456');
    expect(await screen.findByText('Invitación', {}, { timeout: 5000 })).toBeTruthy();
    expect(requests).toHaveLength(1);
    expect(requests[0]!.route).toBe(LOGIN);
    expect(requests[0]!.body).toMatchObject({ code: 'c-123', state: 's-456', form: 'signup', platformType: 'web' });
    expect(useAuthStore.getState()).toMatchObject({ loggedIn: true, refreshToken: 'r-1', userId: profile.id });
    // The intent is spent: a reload of the page would not reuse it.
    expect(sessionStorage.length).toBe(0);
  });

  it('passes Apple’s `user` on and signs in as a login when no intent was kept', async () => {
    const requests = stubRoutes({ 'POST /realms/therapists/login/apple': [200, { kind: 'signed_in', created: false, ...tokens }] });
    const user = JSON.stringify({ name: { firstName: 'Marta', lastName: 'Ruiz' } });
    openCallback(`/auth/apple/callback?code=c&state=s&user=${encodeURIComponent(user)}`);
    expect(await screen.findByText('Inicio')).toBeTruthy();
    expect(requests[0]!.body).toMatchObject({ code: 'c', state: 's', user, form: 'login' });
  });

  it('asks for the code mailed to the existing account, then links and signs in', async () => {
    const requests = stubRoutes({
      [LOGIN]: [
        200,
        { kind: 'link_required', link: LINK_ID, email: 'marta@consulta.example', provider: 'google', expiresAt: new Date().toISOString() },
      ],
      [LINK]: [200, { kind: 'signed_in', created: false, ...tokens }],
    });
    const { user } = openCallback('/auth/google/callback?code=c&state=s');
    expect(await screen.findByRole('heading', { name: 'Vincula tu cuenta de Google' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText(/Ya tienes una cuenta con/).textContent).toBe(
      'Ya tienes una cuenta con marta@consulta.example. Para vincular Google escribe el código que te hemos enviado por email.',
    );
    expect(useAuthStore.getState().loggedIn).toBe(false);
    await user.type(screen.getByRole('textbox', { name: 'Código de verificación' }), '123456');
    expect(await screen.findByText('Inicio')).toBeTruthy();
    expect(requests.map((r) => r.route)).toEqual([LOGIN, LINK]);
    expect(requests[1]!.body).toMatchObject({ link: LINK_ID, code: '123456', platformType: 'web' });
    expect(useAuthStore.getState().loggedIn).toBe(true);
  });

  it('says a wrong code in the field and lets the person try again', async () => {
    stubRoutes({
      [LOGIN]: [
        200,
        { kind: 'link_required', link: LINK_ID, email: 'marta@consulta.example', provider: 'google', expiresAt: new Date().toISOString() },
      ],
      [LINK]: [400, { code: 'invalid_code', message: 'El código no es correcto.' }],
    });
    const { user } = openCallback('/auth/google/callback?code=c&state=s');
    await user.type(await screen.findByRole('textbox', { name: 'Código de verificación' }), '111111');
    expect((await screen.findByRole('alert')).textContent).toBe('El código no es correcto.');
    expect(screen.getByRole('button', { name: 'Vincular y entrar' }).hasAttribute('disabled')).toBe(false);
  });

  it('shows the server’s Spanish message and a way back to sign in', async () => {
    stubRoutes({ [LOGIN]: [403, { code: 'provider_email_not_verified', message: 'El email de tu proveedor no está verificado.' }] });
    const { user } = openCallback('/auth/google/callback?code=c&state=s');
    expect((await screen.findByRole('alert')).textContent).toBe('El email de tu proveedor no está verificado.');
    expect(screen.getByRole('heading', { name: 'No hemos podido entrar con Google' })).toBeTruthy();
    await user.click(screen.getByRole('link', { name: 'Volver a iniciar sesión' }));
    expect(await screen.findByText('Página de inicio de sesión')).toBeTruthy();
    expect(useAuthStore.getState().loggedIn).toBe(false);
  });

  it('a refusal at the provider asks the server nothing', async () => {
    const requests = stubRoutes({});
    openCallback('/auth/google/callback?error=access_denied&state=s');
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Has cancelado el acceso con Google/);
    await waitFor(() => expect(requests).toHaveLength(0));
  });

  it('started in Ajustes › Seguridad, links the identity to the signed-in account and goes back there', async () => {
    signIn();
    rememberSocialIntent({ kind: 'link', provider: 'google' });
    const identity = {
      id: LINK_ID,
      provider: 'google',
      email: 'marta@gmail.example',
      createdAt: new Date().toISOString(),
      lastUsedAt: null,
    };
    const requests = stubRoutes({ 'POST /me/identities/google': [201, identity] });
    openCallback('/auth/google/callback?code=c&state=s');
    expect(await screen.findByText('Ajustes de seguridad')).toBeTruthy();
    expect(requests).toEqual([{ route: 'POST /me/identities/google', body: { code: 'c', state: 's' } }]);
  });
});
