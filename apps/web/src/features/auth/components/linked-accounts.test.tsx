// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IdentitiesResponse } from '@divan/core';
import { renderScreen, signIn } from '@/test/render';
import { useAuthStore } from '@/stores/auth-store';
import { identitiesKey } from '../api/identities-api';
import { secondFactorKey } from '../api/second-factor-api';
import { passkeysKey } from '../api/passkeys-api';
import { SecuritySettingsRoute } from '../routes/security-settings';

const GOOGLE = {
  id: '0b8c2b9e-6f0e-4a34-9d1c-2f3a4b5c6d7e',
  provider: 'google' as const,
  email: 'marta@gmail.example',
  createdAt: '2026-12-01T10:00:00.000Z',
  lastUsedAt: '2026-12-05T10:00:00.000Z',
};
const APPLE = { ...GOOGLE, id: '5f1c2b9e-6f0e-4a34-9d1c-2f3a4b5c6d7e', provider: 'apple' as const, email: 'x1y2@privaterelay.appleid.com' };

function stubServer(answers: Record<string, [number, unknown]>) {
  const requests: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      const route = `${init?.method ?? 'GET'} ${new URL(String(url), 'http://localhost').pathname.replace(/^\/api\/v1/, '')}`;
      requests.push(route);
      const [status, body] = answers[route] ?? [404, { code: 'not_found', message: `Sin respuesta para ${route}` }];
      return new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return requests;
}

function openSecurity(identities: IdentitiesResponse) {
  signIn();
  const secondFactor = {
    totp: false,
    totpEnabledAt: null,
    recoveryCodesLeft: 0,
    passkeys: 0,
    enrolmentRequired: false,
    verifiedAt: '2026-12-05T10:00:00.000Z',
  };
  return renderScreen(<SecuritySettingsRoute />, {
    queries: [
      [identitiesKey, identities],
      [secondFactorKey, secondFactor],
      [passkeysKey, []],
    ],
  });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useAuthStore.setState({ userId: null, accessToken: null, refreshToken: null, profile: null, loggedIn: false });
});

describe('Ajustes › Seguridad › Accesos vinculados', () => {
  it('lists the linked accounts, offers the providers not linked yet, and unlinks after confirming', async () => {
    const requests = stubServer({ [`DELETE /me/identities/${GOOGLE.id}`]: [204, null] });
    const { user } = openSecurity({ identities: [GOOGLE], hasPassword: true, providers: ['google', 'apple'] });
    const list = screen.getByRole('list', { name: 'Cuentas vinculadas' });
    expect(within(list).getByText('marta@gmail.example')).toBeTruthy();
    expect(within(list).getByText('Vinculada el 01/12/2026 · último acceso el 05/12/2026')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Vincular Apple' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Vincular Google' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Desvincular Google' }));
    const dialog = await screen.findByRole('alertdialog', { name: '¿Desvincular Google?' });
    // Cancelling asks nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(requests).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Desvincular Google' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Desvincular' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(requests[0]).toBe(`DELETE /me/identities/${GOOGLE.id}`);
    expect(screen.queryByText('marta@gmail.example')).toBeNull();
  });

  it('the only way in (no password, one account) cannot be unlinked, and says why', () => {
    stubServer({});
    openSecurity({ identities: [APPLE], hasPassword: false, providers: ['google', 'apple'] });
    expect(screen.queryByRole('button', { name: /Desvincular/ })).toBeNull();
    expect(screen.getByText(/Apple es ahora tu única forma de entrar en Diván/)).toBeTruthy();
    // No password to change either.
    expect(screen.queryByRole('button', { name: 'Actualizar contraseña' })).toBeNull();
    expect(screen.getByText(/Tu cuenta no tiene contraseña/)).toBeTruthy();
  });

  it('shows the server’s refusal inside the dialog', async () => {
    stubServer({
      [`DELETE /me/identities/${APPLE.id}`]: [
        409,
        { code: 'identity_last_way_in', message: 'No puedes desvincular tu único modo de acceso. Crea antes una contraseña.' },
      ],
    });
    const { user } = openSecurity({ identities: [GOOGLE, APPLE], hasPassword: false, providers: ['google', 'apple'] });
    await user.click(screen.getByRole('button', { name: 'Desvincular Apple' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Desvincular' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'No puedes desvincular tu único modo de acceso. Crea antes una contraseña.',
    );
  });
});
