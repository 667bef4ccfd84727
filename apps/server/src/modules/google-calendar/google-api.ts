/**
 * The part of Google Calendar API v3 Diván uses, over plain `fetch` (Google's Node libraries need
 * Node 22): the Diván calendar, the calendar list, events of the Diván calendar, incremental lists of
 * the busy calendars, and push channels. Every failure is a typed `GoogleApiError`; the callers (jobs)
 * decide: 401 → refresh the access token once, 410 → full resync, 429/5xx → throw for the job's retry.
 */

export class GoogleApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(`Google Calendar answered ${status}${reason ? ` (${reason})` : ''}`);
  }
  get unauthorized() {
    return this.status === 401;
  }
  get gone() {
    return this.status === 410;
  }
  get notFound() {
    return this.status === 404;
  }
  /** Worth retrying later (rate limits, Google's own failures, the network). */
  get transient() {
    return this.status === 0 || this.status === 429 || this.status >= 500 || (this.status === 403 && /rateLimit/i.test(this.reason));
  }
}

export type GoogleEventTime = { dateTime?: string; date?: string; timeZone?: string };
export type GoogleEvent = {
  id: string;
  etag?: string;
  status?: 'confirmed' | 'tentative' | 'cancelled';
  transparency?: 'opaque' | 'transparent';
  start?: GoogleEventTime;
  end?: GoogleEventTime;
  hangoutLink?: string;
  conferenceData?: { entryPoints?: { entryPointType?: string; uri?: string }[] };
};
export type GoogleEventInput = {
  /** Chosen by Diván at insert (base32hex), so a retried insert answers 409 instead of doubling. */
  id?: string;
  summary: string;
  description: string;
  start: { dateTime: string; timeZone: string };
  end: { dateTime: string; timeZone: string };
  location?: string;
  status?: 'confirmed';
  transparency: 'opaque';
  visibility: 'private';
  reminders: { useDefault: false };
  extendedProperties: { private: { divanSessionId: string } };
  conferenceData?: { createRequest: { requestId: string; conferenceSolutionKey: { type: 'hangoutsMeet' } } } | null;
};
export type GoogleCalendarEntry = { id: string; summary?: string; summaryOverride?: string; primary?: boolean; backgroundColor?: string };
export type EventsPage = { items: GoogleEvent[]; nextPageToken?: string; nextSyncToken?: string };
export type WatchAnswer = { id: string; resourceId: string; expiration?: string };

const TIMEOUT_MS = 15_000;

export class GoogleCalendarApi {
  constructor(private readonly apiBase: string) {}

  private async call<T>(
    token: string,
    method: string,
    path: string,
    o: { query?: Record<string, string | undefined>; body?: unknown } = {},
  ) {
    const url = new URL(`${this.apiBase}/calendar/v3${path}`);
    for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: o.body !== undefined ? JSON.stringify(o.body) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new GoogleApiError(0, err instanceof Error ? err.message : 'network');
    }
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    if (!res.ok) throw new GoogleApiError(res.status, reasonOf(text));
    try {
      return (text ? JSON.parse(text) : undefined) as T;
    } catch {
      throw new GoogleApiError(502, 'not json');
    }
  }

  insertCalendar = (token: string, summary: string, timeZone: string) =>
    this.call<{ id: string }>(token, 'POST', '/calendars', { body: { summary, timeZone } });

  async listCalendars(token: string): Promise<GoogleCalendarEntry[]> {
    const out: GoogleCalendarEntry[] = [];
    let pageToken: string | undefined;
    do {
      const page = await this.call<{ items?: GoogleCalendarEntry[]; nextPageToken?: string }>(token, 'GET', '/users/me/calendarList', {
        query: { pageToken, maxResults: '250' },
      });
      out.push(...(page.items ?? []));
      pageToken = page.nextPageToken;
    } while (pageToken && out.length < 2_000);
    return out;
  }

  insertEvent = (token: string, calendarId: string, event: GoogleEventInput) =>
    this.call<GoogleEvent>(token, 'POST', `/calendars/${enc(calendarId)}/events`, { query: { conferenceDataVersion: '1' }, body: event });

  patchEvent = (token: string, calendarId: string, eventId: string, event: Partial<GoogleEventInput>) =>
    this.call<GoogleEvent>(token, 'PATCH', `/calendars/${enc(calendarId)}/events/${enc(eventId)}`, {
      query: { conferenceDataVersion: '1' },
      body: event,
    });

  deleteEvent = (token: string, calendarId: string, eventId: string) =>
    this.call<void>(token, 'DELETE', `/calendars/${enc(calendarId)}/events/${enc(eventId)}`);

  /** One page of a calendar's events: changes since `syncToken`, or everything from `timeMin` (a full sync). */
  listEvents = (token: string, calendarId: string, q: { syncToken?: string; timeMin?: string; pageToken?: string }) =>
    this.call<EventsPage>(token, 'GET', `/calendars/${enc(calendarId)}/events`, {
      query: {
        singleEvents: 'true',
        showDeleted: 'true',
        maxResults: '250',
        syncToken: q.syncToken,
        timeMin: q.syncToken ? undefined : q.timeMin,
        pageToken: q.pageToken,
      },
    });

  watchEvents = (token: string, calendarId: string, channel: { id: string; token: string; address: string; ttlSeconds: number }) =>
    this.call<WatchAnswer>(token, 'POST', `/calendars/${enc(calendarId)}/events/watch`, {
      body: {
        id: channel.id,
        type: 'web_hook',
        address: channel.address,
        token: channel.token,
        params: { ttl: String(channel.ttlSeconds) },
      },
    });

  stopChannel = (token: string, channelId: string, resourceId: string) =>
    this.call<void>(token, 'POST', '/channels/stop', { body: { id: channelId, resourceId } });
}

const enc = encodeURIComponent;

function reasonOf(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { errors?: { reason?: string }[]; status?: string; message?: string } };
    return body.error?.errors?.[0]?.reason ?? body.error?.status ?? '';
  } catch {
    return '';
  }
}

/** The Meet link of an event Google answered (hangoutLink, or the video entry point). */
export const meetLinkOf = (e: GoogleEvent): string | null =>
  e.hangoutLink ?? e.conferenceData?.entryPoints?.find((p) => p.entryPointType === 'video')?.uri ?? null;
