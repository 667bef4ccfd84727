// @vitest-environment jsdom
import { StrictMode } from 'react';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GoogleCalendarStatus, Workspace } from '@divan/core';
import { renderScreen, signIn } from '@/test/render';
import { placeholderWorkspace, useWorkspacesStore } from '@/stores/workspaces-store';
import { googleCalendarKeys } from '../api/google-calendar-api';
import { rememberConnectingWorkspace } from '../utils/leave-for';
import { GoogleCalendarCallbackRoute } from './google-callback';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn(), message: vi.fn() }));
vi.mock('@/lib/toast', () => ({ toast }));

const WID = '7d0c2b9e-6f0e-4a34-9d1c-2f3a4b5c6d7e';
const CALLBACK = `POST /workspaces/${WID}/google-calendar/callback`;
const workspace: Workspace = { ...placeholderWorkspace, id: WID, name: 'Consulta Marta' };
const status: GoogleCalendarStatus = {
  enabled: true,
  connected: true,
  googleEmail: 'marta@gmail.example',
  connectedAt: '2026-12-07T10:00:00.000Z',
  titleFormat: 'initials',
  calendars: [],
  busyCalendarIds: [],
  lastSyncedAt: null,
  existingSynced: false,
};

function stubRoutes(routes: Record<string, [number, unknown]>) {
  const requests: { route: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      const route = `${init?.method ?? 'GET'} ${new URL(String(url), 'http://localhost').pathname.replace(/^\/api\/v1/, '')}`;
      requests.push({ route, body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined });
      const [code, body] = routes[route] ?? [404, { code: 'not_found', message: `Sin respuesta para ${route}` }];
      return new Response(JSON.stringify(body), { status: code, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return requests;
}

/** The page as Google sends the browser back to it, under StrictMode (its double effect must not post twice). */
function openCallback(query: string) {
  signIn();
  return renderScreen(
    <StrictMode>
      <Routes>
        <Route path="/settings/integrations/google/callback" element={<GoogleCalendarCallbackRoute />} />
        <Route path="/settings/integrations" element={<p>Ajustes de integraciones</p>} />
      </Routes>
    </StrictMode>,
    { route: `/settings/integrations/google/callback${query}` },
  );
}

beforeEach(() => useWorkspacesStore.setState({ userId: 'u-1', workspaces: [workspace], currentId: WID }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  Object.values(toast).forEach((fn) => fn.mockReset());
  sessionStorage.clear();
});

describe('GoogleCalendarCallbackRoute', () => {
  it('posts the code and state once, then goes back to Integraciones with «Google Calendar conectado»', async () => {
    const requests = stubRoutes({ [CALLBACK]: [200, status] });
    const { client } = openCallback('?code=4%2Fcode-1&state=st-1&scope=calendar');
    expect(await screen.findByText('Ajustes de integraciones')).toBeTruthy();
    expect(requests).toEqual([{ route: CALLBACK, body: { code: '4/code-1', state: 'st-1' } }]);
    expect(toast.success).toHaveBeenCalledWith('Google Calendar conectado');
    expect(client.getQueryData(googleCalendarKeys.status(WID))).toEqual(status);
  });

  it('shows the server’s refusal in Spanish, with the way back', async () => {
    const requests = stubRoutes({
      [CALLBACK]: [
        400,
        {
          code: 'google_refresh_token_missing',
          message: 'Google no ha dado acceso permanente al calendario, así que Google Calendar no se ha conectado.',
        },
      ],
    });
    openCallback('?code=c-2&state=st-2');
    expect((await screen.findByRole('alert')).textContent).toMatch(/Google no ha dado acceso permanente al calendario/);
    expect(screen.getByRole('heading', { name: 'No se ha conectado Google Calendar' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Volver a Integraciones' }).getAttribute('href')).toBe('/settings/integrations');
    expect(requests).toHaveLength(1);
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('the person said no at Google: nothing is posted', async () => {
    const requests = stubRoutes({});
    openCallback('?error=access_denied&state=st-3');
    expect((await screen.findByRole('alert')).textContent).toMatch(/Has cancelado el permiso en Google/);
    expect(requests).toEqual([]);
  });

  it('an answer without its code or state asks to start again', async () => {
    const requests = stubRoutes({});
    openCallback('');
    expect((await screen.findByRole('alert')).textContent).toMatch(/Falta la respuesta de Google/);
    expect(requests).toEqual([]);
  });

  it('waits for the workspace before posting', async () => {
    useWorkspacesStore.setState({ userId: 'u-1', workspaces: [], currentId: placeholderWorkspace.id });
    const requests = stubRoutes({ [CALLBACK]: [200, status] });
    openCallback('?code=c-4&state=st-4');
    expect(screen.getByText('Conectando con Google Calendar…')).toBeTruthy();
    expect(requests).toEqual([]);
    useWorkspacesStore.setState({ workspaces: [workspace], currentId: WID });
    await waitFor(() => expect(screen.getByText('Ajustes de integraciones')).toBeTruthy());
    expect(requests.map((r) => r.route)).toEqual([CALLBACK]);
  });

  it('started in another of the person’s workspaces, connects that one (the state belongs to it)', async () => {
    const other: Workspace = { ...workspace, id: '9e1c2b9e-6f0e-4a34-9d1c-2f3a4b5c6d7e', name: 'Clínica Norte' };
    useWorkspacesStore.setState({ userId: 'u-1', workspaces: [workspace, other], currentId: WID });
    rememberConnectingWorkspace(other.id);
    const requests = stubRoutes({ [`POST /workspaces/${other.id}/google-calendar/callback`]: [200, status] });
    openCallback('?code=c-5&state=st-5');
    expect(await screen.findByText('Ajustes de integraciones')).toBeTruthy();
    expect(requests.map((r) => r.route)).toEqual([`POST /workspaces/${other.id}/google-calendar/callback`]);
    expect(useWorkspacesStore.getState().currentId).toBe(other.id);
  });
});
