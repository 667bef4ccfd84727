// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Passkey } from '@divan/core';
import { renderScreen, signIn } from '@/test/render';
import { useAuthStore } from '@/stores/auth-store';
import { passkeysKey } from '../api/passkeys-api';
import { PasskeysCard } from './passkeys-card';

const PORTATIL: Passkey = {
  id: '0b8c2b9e-6f0e-4a34-9d1c-2f3a4b5c6d7e',
  name: 'Portátil',
  createdAt: '2026-12-01T10:00:00.000Z',
  lastUsedAt: null,
  deviceType: 'singleDevice',
  backedUp: false,
};
const MOVIL: Passkey = {
  ...PORTATIL,
  id: '5f1c2b9e-6f0e-4a34-9d1c-2f3a4b5c6d7e',
  name: 'Móvil',
  lastUsedAt: '2026-12-05T10:00:00.000Z',
  backedUp: true,
};

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

function open(passkeys: Passkey[]) {
  signIn();
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  return renderScreen(<PasskeysCard />, { queries: [[passkeysKey, passkeys]] });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useAuthStore.setState({ userId: null, accessToken: null, refreshToken: null, profile: null, loggedIn: false });
});

describe('Ajustes › Seguridad › Llaves de acceso', () => {
  it('says there are none yet, with a way to add one', () => {
    stubServer({});
    open([]);
    expect(screen.getByText('Aún no tienes llaves de acceso')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Añadir una llave de acceso' })).toBeTruthy();
  });

  it('lists each passkey with its last use; renames one; deletes another after confirming', async () => {
    const requests = stubServer({
      [`PATCH /realms/therapists/passkeys/${PORTATIL.id}`]: [200, { ...PORTATIL, name: 'Portátil del despacho' }],
      [`DELETE /realms/therapists/passkeys/${MOVIL.id}`]: [204, null],
      'GET /realms/therapists/passkeys': [200, { items: [{ ...PORTATIL, name: 'Portátil del despacho' }, MOVIL] }],
      'GET /realms/therapists/second-factor': [200, {}],
    });
    const { user } = open([PORTATIL, MOVIL]);
    const list = screen.getByRole('list', { name: 'Tus llaves de acceso' });
    expect(within(list).getByText(/Añadida el 01\/12\/2026 · Aún no se ha usado/)).toBeTruthy();
    expect(within(list).getByText(/Último uso: 05\/12\/2026.*Sincronizada/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Cambiar el nombre de Portátil' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cambiar el nombre' });
    const field = within(dialog).getByLabelText('Nombre de la llave');
    await user.clear(field);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(within(dialog).getByText('El campo nombre es obligatorio')).toBeTruthy();
    await user.type(field, 'Portátil del despacho');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requests).toContain(`PATCH /realms/therapists/passkeys/${PORTATIL.id}`);

    await user.click(screen.getByRole('button', { name: 'Eliminar Móvil' }));
    const confirm = await screen.findByRole('alertdialog', { name: '¿Eliminar «Móvil»?' });
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(requests).toContain(`DELETE /realms/therapists/passkeys/${MOVIL.id}`);
  });

  it('shows why a load failed, with a retry', async () => {
    stubServer({ 'GET /realms/therapists/passkeys': [500, { code: 'unexpected_error', message: 'Error inesperado.' }] });
    signIn();
    renderScreen(<PasskeysCard />);
    expect(await screen.findByRole('button', { name: /Reintentar/ }, { timeout: 5000 })).toBeTruthy();
  });
});
