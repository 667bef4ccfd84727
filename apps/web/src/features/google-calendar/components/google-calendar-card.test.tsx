// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GoogleCalendarStatus } from '@divan/core';
import { renderScreen, signIn } from '@/test/render';
import { googleCalendarKeys } from '../api/google-calendar-api';
import { GoogleCalendarCard } from './google-calendar-card';

const leaveFor = vi.hoisted(() => vi.fn());
vi.mock('../utils/leave-for', () => ({ leaveFor, rememberConnectingWorkspace: vi.fn() }));

const WID = '7d0c2b9e-6f0e-4a34-9d1c-2f3a4b5c6d7e';
const P = `/workspaces/${WID}/google-calendar`;
type Answer = [status: number, body: unknown];

const notConnected: GoogleCalendarStatus = {
  enabled: true,
  connected: false,
  googleEmail: null,
  connectedAt: null,
  titleFormat: 'initials',
  calendars: [],
  busyCalendarIds: [],
  lastSyncedAt: null,
  existingSynced: false,
};
const connected: GoogleCalendarStatus = {
  enabled: true,
  connected: true,
  googleEmail: 'marta@gmail.example',
  connectedAt: '2026-12-01T10:00:00.000Z',
  titleFormat: 'initials',
  calendars: [
    { id: 'marta@gmail.example', name: 'marta@gmail.example', primary: true, color: '#039be5' },
    { id: 'trabajo@group.calendar.google.com', name: 'Trabajo', primary: false, color: null },
  ],
  busyCalendarIds: ['marta@gmail.example'],
  lastSyncedAt: '2026-12-05T09:30:00.000Z',
  existingSynced: false,
};

/** `fetch`, answering each `METHOD /path` (under /api/v1) and recording what was asked with its body. */
function stubRoutes(routes: Record<string, Answer | ((body: unknown) => Answer)>) {
  const requests: { route: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      const route = `${init?.method ?? 'GET'} ${new URL(String(url), 'http://localhost').pathname.replace(/^\/api\/v1/, '')}`;
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      requests.push({ route, body });
      const answer = routes[route];
      const [status, out] =
        typeof answer === 'function' ? answer(body) : (answer ?? [404, { code: 'not_found', message: `Sin respuesta para ${route}` }]);
      return new Response(status === 204 ? null : JSON.stringify(out), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return requests;
}

function open(status: GoogleCalendarStatus) {
  signIn();
  return renderScreen(<GoogleCalendarCard workspaceId={WID} />, { queries: [[googleCalendarKeys.status(WID), status]] });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  leaveFor.mockReset();
});

describe('Ajustes › Integraciones › Google Calendar', () => {
  it('is hidden when the server has no Google keys', () => {
    stubRoutes({});
    const { container } = open({ ...notConnected, enabled: false });
    expect(container.textContent).toBe('');
  });

  it('not connected: says what syncs and what never leaves Diván, and sends the browser to Google', async () => {
    const requests = stubRoutes({ [`POST ${P}/authorize`]: [200, { url: 'https://accounts.google.test/o/oauth2/v2/auth?x=1' }] });
    const { user } = open(notConnected);
    expect(screen.getByRole('heading', { name: 'Google Calendar' })).toBeTruthy();
    expect(screen.getByText(/a partir de ahora/)).toBeTruthy();
    expect(screen.getByText(/Google Meet llevan su enlace de Meet/)).toBeTruthy();
    expect(screen.getByText(/aparecen en gris en tu agenda/)).toBeTruthy();
    expect(screen.getByText(/nunca el motivo de consulta/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Conectar con Google' }));
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith('https://accounts.google.test/o/oauth2/v2/auth?x=1'));
    expect(requests.map((r) => r.route)).toEqual([`POST ${P}/authorize`]);
  });

  it('connected: the account, the title format and the busy calendars are saved, the existing sessions sent once', async () => {
    const requests = stubRoutes({
      [`PUT ${P}/settings`]: (body) => [200, { ...connected, ...(body as object) }],
      [`POST ${P}/sync-existing`]: [200, { queued: 3 }],
    });
    const { user } = open(connected);
    expect(screen.getByText('marta@gmail.example', { selector: 'strong' })).toBeTruthy();
    expect(screen.getByText(/desde el 01\/12\/2026/)).toBeTruthy();
    expect(screen.getByText(/Última sincronización con Google: 05\/12\/2026 a las/)).toBeTruthy();

    const formats = screen.getByRole('radiogroup', { name: 'Título de las sesiones en Google' });
    expect(within(formats).getByRole('radio', { name: 'Iniciales del paciente (p. ej. «A. G.»)' })).toHaveProperty('checked', true);
    await user.click(within(formats).getByRole('radio', { name: 'Nombre del paciente' }));
    await waitFor(() => expect(requests).toContainEqual({ route: `PUT ${P}/settings`, body: { titleFormat: 'first_name' } }));
    await waitFor(() => expect(within(formats).getByRole('radio', { name: 'Nombre del paciente' })).toHaveProperty('checked', true));

    const calendars = screen.getByRole('list', { name: 'Calendarios de Google' });
    expect(within(calendars).getByRole('checkbox', { name: /marta@gmail.example/ })).toHaveProperty('checked', true);
    const work = within(calendars).getByRole('checkbox', { name: 'Trabajo' });
    expect(work).toHaveProperty('checked', false);
    await user.click(work);
    await waitFor(() =>
      expect(requests).toContainEqual({
        route: `PUT ${P}/settings`,
        body: { busyCalendarIds: ['marta@gmail.example', 'trabajo@group.calendar.google.com'] },
      }),
    );
    await waitFor(() => expect(within(calendars).getByRole('checkbox', { name: 'Trabajo' })).toHaveProperty('checked', true));

    await user.click(screen.getByRole('button', { name: 'Sincronizar también las sesiones futuras existentes' }));
    expect(await screen.findByText(/3 sesiones futuras se están enviando a Google Calendar/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sincronizar también las sesiones futuras existentes' })).toBeNull();
  });

  it('once the existing sessions were sent, the button is gone', () => {
    stubRoutes({});
    open({ ...connected, existingSynced: true });
    expect(screen.queryByRole('button', { name: 'Sincronizar también las sesiones futuras existentes' })).toBeNull();
    expect(screen.getByText(/también las que ya existían al conectar/)).toBeTruthy();
  });

  it('a refused setting says why and shows the saved choice again', async () => {
    stubRoutes({
      [`PUT ${P}/settings`]: [502, { code: 'google_calendar_unavailable', message: 'Google Calendar no responde ahora mismo.' }],
    });
    const { user } = open(connected);
    const work = screen.getByRole('checkbox', { name: 'Trabajo' });
    await user.click(work);
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Trabajo' })).toHaveProperty('checked', false));
  });

  it('disconnects only after the confirmation, which says what happens to the events at Google', async () => {
    const requests = stubRoutes({ [`DELETE ${P}`]: [204, null], [`GET ${P}`]: [200, notConnected] });
    const { user } = open(connected);
    await user.click(screen.getByRole('button', { name: 'Desconectar' }));
    const dialog = await screen.findByRole('alertdialog', { name: '¿Desconectar Google Calendar?' });
    expect(within(dialog).getByText(/retiraremos su acceso a tu cuenta de Google/)).toBeTruthy();
    expect(within(dialog).getByText(/se quedan en el calendario «Diván» de Google/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(requests).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Desconectar' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Desconectar' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(requests[0]?.route).toBe(`DELETE ${P}`);
    expect(await screen.findByRole('button', { name: 'Conectar con Google' })).toBeTruthy();
  });

  it('a status that cannot be read is said, with a way to try again', async () => {
    stubRoutes({ [`GET ${P}`]: [500, { code: 'internal_error', message: 'Error interno del servidor' }] });
    signIn();
    renderScreen(<GoogleCalendarCard workspaceId={WID} />);
    expect(await screen.findByText('Error interno del servidor')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeTruthy();
  });
});
