import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeEvent, FakeGoogle } from '../../apps/server/src/test/fake-google-calendar';

/**
 * The fake Google (OAuth + Calendar API, apps/server/src/test/fake-google-calendar) lives in the global
 * setup's process, beside the server that calls it; test files run in other processes. This small control
 * server, started beside it, lets a test read the fake's events, add a busy event as if typed in Google,
 * and fire the push notifications Google would send to the server's channels.
 */
export async function startFakeGoogleControl(fake: FakeGoogle, serverUrl: string): Promise<{ url: string; close: () => Promise<void> }> {
  const bodyOf = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', 'http://control');
    void (async () => {
      const { store } = fake;
      if (req.method === 'GET' && url.pathname === '/divan-events') return send(200, store.divanEvents());
      if (req.method === 'GET' && url.pathname === '/events') return send(200, store.allEvents());
      if (req.method === 'GET' && url.pathname === '/channels') return send(200, store.liveChannels());
      if (req.method === 'GET' && url.pathname === '/revocations') return send(200, store.revocations);
      if (req.method === 'POST' && url.pathname === '/busy') {
        const b = await bodyOf(req);
        const calendarId = typeof b.calendarId === 'string' ? b.calendarId : [...store.calendars.values()].find((c) => c.primary)!.id;
        const id = store.addBusyEvent(calendarId, new Date(String(b.start)), new Date(String(b.end)), {
          summary: typeof b.summary === 'string' ? b.summary : undefined,
        });
        return send(200, { id, calendarId });
      }
      if (req.method === 'POST' && url.pathname === '/push') {
        // Google's request to each live channel's address (the server's notifications route), real headers.
        const b = await bodyOf(req);
        const channels = store.liveChannels(typeof b.calendarId === 'string' ? b.calendarId : undefined);
        const statuses: number[] = [];
        for (const ch of channels) {
          const { path, headers } = fake.push(ch);
          const r = await fetch(`${serverUrl}${path}`, { method: 'POST', headers });
          statuses.push(r.status);
        }
        return send(200, { statuses });
      }
      return send(404, { error: 'unknown control route' });
    })().catch((err: unknown) => send(500, { error: String(err) }));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

/** A test's handle on the fake Google (through the control server). */
export function fakeGoogle(controlUrl: string) {
  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${controlUrl}${path}`);
    if (!res.ok) throw new Error(`fake Google ${path}: ${res.status}`);
    return (await res.json()) as T;
  };
  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await fetch(`${controlUrl}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`fake Google ${path}: ${res.status}`);
    return (await res.json()) as T;
  };
  return {
    /** The events of the «Diván» calendar not cancelled. */
    divanEvents: () => get<FakeEvent[]>('/divan-events'),
    /** Every event of every calendar, cancelled ones included. */
    allEvents: () => get<FakeEvent[]>('/events'),
    channels: () => get<{ id: string; calendarId: string }[]>('/channels'),
    revocations: () => get<string[]>('/revocations'),
    /** A busy event in the account's primary calendar (or `calendarId`), as if the therapist typed it in Google. */
    addBusy: (start: Date, end: Date, o: { calendarId?: string; summary?: string } = {}) =>
      post<{ id: string; calendarId: string }>('/busy', { start: start.toISOString(), end: end.toISOString(), ...o }),
    /** Google's push notification to every live channel (of `calendarId`): the statuses the server answered. */
    push: (calendarId?: string) => post<{ statuses: number[] }>('/push', calendarId ? { calendarId } : {}),
  };
}
