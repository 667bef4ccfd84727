// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IdentitiesResponse } from '@divan/core';
import { renderScreen, signIn } from '@/test/render';
import { useAuthStore } from '@/stores/auth-store';
import { identitiesKey } from '../api/identities-api';
import { CreatePasswordCard } from './create-password-card';

const CHALLENGE = '3f1c2b9e-6f0e-4a34-9d1c-2f3a4b5c6d7e';
const SENT = { challenge: CHALLENGE, expiresAt: '2026-12-07T10:10:00.000Z', email: 'lola@example.com' };
const IDENTITIES: IdentitiesResponse = {
  identities: [
    {
      id: '0b8c2b9e-6f0e-4a34-9d1c-2f3a4b5c6d7e',
      provider: 'google',
      email: 'lola@example.com',
      createdAt: '2026-12-01T10:00:00.000Z',
      lastUsedAt: null,
    },
  ],
  hasPassword: false,
  providers: ['google'],
};
type Answer = [number, unknown];

/** `fetch`, answering each `METHOD /path` with its answers in turn (the last one again). */
function stubServer(answers: Record<string, Answer[]>) {
  const requests: { route: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      const route = `${init?.method ?? 'GET'} ${new URL(String(url), 'http://localhost').pathname.replace(/^\/api\/v1/, '')}`;
      requests.push({ route, body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined });
      const queue = answers[route] ?? [];
      const [status, body] = (queue.length > 1 ? queue.shift() : queue[0]) ?? [
        404,
        { code: 'not_found', message: `Sin respuesta para ${route}` },
      ];
      return new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return requests;
}

function open() {
  signIn();
  return renderScreen(<CreatePasswordCard />, { queries: [[identitiesKey, IDENTITIES]] });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useAuthStore.setState({ userId: null, accessToken: null, refreshToken: null, profile: null, loggedIn: false });
});

describe('Ajustes › Seguridad › «Crear contraseña»', () => {
  it('mails a code, then sets the password with it; the page then knows the account has one', async () => {
    const requests = stubServer({
      'POST /me/password/code': [[200, SENT]],
      'POST /me/password': [
        [
          400,
          { code: 'invalid_code', message: 'El código no es correcto.', details: [{ path: 'code', message: 'El código no es correcto' }] },
        ],
        [204, null],
      ],
      'GET /me/identities': [[200, { ...IDENTITIES, hasPassword: true }]],
    });
    const { user, client } = open();
    await user.click(screen.getByRole('button', { name: 'Crear contraseña' }));
    expect(await screen.findByText('lola@example.com')).toBeTruthy();

    // The form says what is wrong before asking anything.
    await user.type(screen.getByLabelText('Código de verificación'), '123456');
    await user.type(screen.getByLabelText('Nueva contraseña'), 'Divan-Lola-2026');
    await user.type(screen.getByLabelText('Repite la nueva contraseña'), 'Otra-cosa-2026');
    await user.click(screen.getByRole('button', { name: 'Guardar contraseña' }));
    expect(await screen.findByText('Las contraseñas no coinciden')).toBeTruthy();
    expect(requests.filter((r) => r.route === 'POST /me/password')).toEqual([]);

    await user.clear(screen.getByLabelText('Repite la nueva contraseña'));
    await user.type(screen.getByLabelText('Repite la nueva contraseña'), 'Divan-Lola-2026');
    await user.click(screen.getByRole('button', { name: 'Guardar contraseña' }));
    // A wrong code: said at the field, typed again.
    expect((await screen.findAllByText(/El código no es correcto/)).length).toBeGreaterThan(0);
    await user.type(screen.getByLabelText('Código de verificación'), '654321');
    await user.click(screen.getByRole('button', { name: 'Guardar contraseña' }));
    await waitFor(() => expect(client.getQueryData<IdentitiesResponse>(identitiesKey)?.hasPassword).toBe(true));
    expect(requests.filter((r) => r.route === 'POST /me/password').map((r) => r.body)).toEqual([
      { challenge: CHALLENGE, code: '123456', newPassword: 'Divan-Lola-2026' },
      { challenge: CHALLENGE, code: '654321', newPassword: 'Divan-Lola-2026' },
    ]);
  });

  it('says why no code was sent (e.g. one a minute ago) and stays on the first step', async () => {
    stubServer({
      'POST /me/password/code': [
        [429, { code: 'recent_challenge', message: 'Acabamos de enviarte un email. Espera un minuto antes de pedir otro.' }],
      ],
    });
    const { user } = open();
    await user.click(screen.getByRole('button', { name: 'Crear contraseña' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Espera un minuto');
    expect(screen.queryByLabelText('Código de verificación')).toBeNull();
  });
});
