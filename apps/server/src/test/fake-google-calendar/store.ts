import { randomBytes, randomUUID } from 'node:crypto';

/** What the fake keeps: grants and tokens, calendars with their events (etags, change numbers), channels. */
export type FakeEvent = {
  id: string;
  etag: string;
  status: 'confirmed' | 'tentative' | 'cancelled';
  summary?: string;
  description?: string;
  location?: string;
  transparency?: 'opaque' | 'transparent';
  start?: { dateTime?: string; date?: string; timeZone?: string };
  end?: { dateTime?: string; date?: string; timeZone?: string };
  hangoutLink?: string;
  conferenceData?: { conferenceId: string; entryPoints: { entryPointType: string; uri: string }[] };
  /** Everything else the client sent (kept to search it). */
  [k: string]: unknown;
  /** The change number of its last change (sync tokens count them). */
  seq: number;
};
export type FakeCalendar = { id: string; summary: string; primary: boolean; events: Map<string, FakeEvent> };
export type FakeChannel = {
  id: string;
  token: string;
  address: string;
  resourceId: string;
  calendarId: string;
  expiration: number;
  stopped: boolean;
};
export type FakeCode = { clientId: string; redirectUri: string; challenge: string; scope: string; used: boolean };

export const MEET_LINK = 'https://meet.google.com/xxx-yyyy-zzz';
export const FAKE_CLIENT = { id: 'divan-test.apps.googleusercontent.com', secret: 'fake-google-secret' };
export const ACCOUNT_EMAIL = 'terapeuta@gmail.test';

const token = (prefix: string) => `${prefix}.${randomBytes(24).toString('base64url')}`;

export class FakeGoogleStore {
  readonly codes = new Map<string, FakeCode>();
  /** refresh token → revoked? */
  readonly refreshTokens = new Map<string, { revoked: boolean }>();
  /** access token → its refresh token, expiry. */
  readonly accessTokens = new Map<string, { refresh: string | null; expiresAt: number }>();
  readonly revocations: string[] = [];
  readonly calendars = new Map<string, FakeCalendar>();
  readonly channels: FakeChannel[] = [];
  /** Switches tests flip. */
  readonly switches = { omitRefreshToken: false, pageSize: 250, goneTokens: new Set<string>(), calendarsOffline: false };
  /** Counters: calls by kind, e.g. `events.insert`, `events.list`. */
  readonly calls = new Map<string, number>();
  private seq = 0;

  constructor() {
    this.addCalendar(ACCOUNT_EMAIL, ACCOUNT_EMAIL, true);
    this.addCalendar('trabajo@group.calendar.google.com', 'Trabajo', false);
  }

  count(kind: string) {
    this.calls.set(kind, (this.calls.get(kind) ?? 0) + 1);
  }

  addCalendar(id: string, summary: string, primary = false): FakeCalendar {
    const cal = { id, summary, primary, events: new Map<string, FakeEvent>() };
    this.calendars.set(id, cal);
    return cal;
  }

  newCalendar(summary: string) {
    return this.addCalendar(`${randomUUID().replaceAll('-', '')}@group.calendar.google.com`, summary);
  }

  // Tokens.
  grant(withRefresh: boolean) {
    const refresh = withRefresh ? token('1//fake-refresh') : null;
    if (refresh) this.refreshTokens.set(refresh, { revoked: false });
    return { refresh, access: this.access(refresh) };
  }
  access(refresh: string | null) {
    const access = token('ya29.fake-access');
    this.accessTokens.set(access, { refresh, expiresAt: Date.now() + 3600_000 });
    return access;
  }
  validAccess(access: string | undefined) {
    const a = access && this.accessTokens.get(access);
    if (!a || a.expiresAt < Date.now()) return false;
    return !a.refresh || this.refreshTokens.get(a.refresh)?.revoked === false;
  }
  /** Every access token given so far stops working (Google answers 401 until refreshed). */
  expireAccessTokens() {
    for (const a of this.accessTokens.values()) a.expiresAt = 0;
  }
  revoke(t: string) {
    this.revocations.push(t);
    const r = this.refreshTokens.get(t);
    if (r) r.revoked = true;
    this.accessTokens.delete(t);
  }

  // Events.
  nextSeq() {
    return ++this.seq;
  }
  get currentSeq() {
    return this.seq;
  }
  put(cal: FakeCalendar, e: Omit<FakeEvent, 'etag' | 'seq'>): FakeEvent {
    const seq = this.nextSeq();
    const stored = { ...e, etag: `"${seq}"`, seq } as FakeEvent;
    cal.events.set(stored.id, stored);
    return stored;
  }

  /** A busy (or free) event of another calendar, as if typed in Google by the therapist. */
  addBusyEvent(calendarId: string, start: Date, end: Date, opts: { transparent?: boolean; summary?: string } = {}): string {
    const cal = this.calendars.get(calendarId)!;
    const id = randomBytes(10).toString('hex');
    this.put(cal, {
      id,
      status: 'confirmed',
      summary: opts.summary ?? 'Dentista',
      transparency: opts.transparent ? 'transparent' : 'opaque',
      start: { dateTime: start.toISOString() },
      end: { dateTime: end.toISOString() },
    });
    return id;
  }
  removeEvent(calendarId: string, eventId: string) {
    const cal = this.calendars.get(calendarId)!;
    const e = cal.events.get(eventId)!;
    this.put(cal, { ...e, status: 'cancelled' });
  }

  /** Every event of every calendar, cancelled ones included (to search them for what must never leave Diván). */
  allEvents(): FakeEvent[] {
    return [...this.calendars.values()].flatMap((c) => [...c.events.values()]);
  }
  /** The calendar named «Diván», and its events not cancelled. */
  divanCalendar() {
    return [...this.calendars.values()].find((c) => c.summary === 'Diván');
  }
  divanEvents(): FakeEvent[] {
    return [...(this.divanCalendar()?.events.values() ?? [])].filter((e) => e.status !== 'cancelled');
  }

  // Channels.
  watch(calendarId: string, body: { id: string; token?: string; address: string; params?: { ttl?: string } }) {
    const ttl = Number(body.params?.ttl ?? 604800);
    const ch: FakeChannel = {
      id: body.id,
      token: body.token ?? '',
      address: body.address,
      resourceId: `res-${randomBytes(8).toString('hex')}`,
      calendarId,
      expiration: Date.now() + ttl * 1000,
      stopped: false,
    };
    this.channels.push(ch);
    return ch;
  }
  liveChannels(calendarId?: string) {
    return this.channels.filter((c) => !c.stopped && (!calendarId || c.calendarId === calendarId));
  }
}
