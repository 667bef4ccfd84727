// Test support: a local fake of Google's OAuth endpoints and the part of Calendar API v3 the
// google-calendar module uses, on 127.0.0.1 at a random port. Point GOOGLE_OAUTH_BASE,
// GOOGLE_TOKEN_BASE and GOOGLE_API_BASE (config.googleCalendar) at `url`.
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import type { GoogleCalendarConfig } from '../../platform/config';
import { calendarRoutes } from './calendar-routes';
import { oauthRoutes } from './oauth-routes';
import { ACCOUNT_EMAIL, FAKE_CLIENT, FakeGoogleStore, MEET_LINK, type FakeChannel } from './store';

export { ACCOUNT_EMAIL, MEET_LINK, FAKE_CLIENT };
export type { FakeEvent } from './store';

export type FakeGoogle = Awaited<ReturnType<typeof startFakeGoogle>>;

export async function startFakeGoogle() {
  const store = new FakeGoogleStore();
  const app: FastifyInstance = Fastify({ logger: false });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  oauthRoutes(app, store);
  calendarRoutes(app, store);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const config = (over: Partial<GoogleCalendarConfig> = {}): GoogleCalendarConfig => ({
    clientId: FAKE_CLIENT.id,
    clientSecret: FAKE_CLIENT.secret,
    oauthBase: url,
    tokenBase: url,
    apiBase: url,
    pollMinutes: 10,
    ...over,
  });
  /** The request Google would send to the channel's address: its path and real headers. */
  const push = (ch: FakeChannel, n = 1) => ({
    path: new URL(ch.address).pathname,
    headers: {
      'x-goog-channel-id': ch.id,
      'x-goog-channel-token': ch.token,
      'x-goog-resource-id': ch.resourceId,
      'x-goog-resource-state': 'exists',
      'x-goog-resource-uri': `${url}/calendar/v3/calendars/${encodeURIComponent(ch.calendarId)}/events`,
      'x-goog-message-number': String(n),
      'x-goog-channel-expiration': new Date(ch.expiration).toUTCString(),
    },
  });
  return {
    url,
    store,
    config,
    push,
    /** Follows the consent page as a browser would: the code and state Google puts on the redirect. */
    async consent(authorizeUrl: string) {
      const res = await fetch(authorizeUrl, { redirect: 'manual' });
      const to = new URL(res.headers.get('location') ?? 'http://invalid/');
      return {
        status: res.status,
        redirectTo: `${to.origin}${to.pathname}`,
        code: to.searchParams.get('code') ?? '',
        state: to.searchParams.get('state') ?? '',
      };
    },
    close: () => app.close(),
  };
}
