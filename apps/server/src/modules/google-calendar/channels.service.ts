import type { FastifyBaseLogger } from 'fastify';
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../platform/db/database';
import type { Jobs, QueueDefinition } from '../../platform/jobs/jobs';
import type { BusySync } from './busy-sync.service';
import { GoogleApiError, type GoogleCalendarApi } from './google-api';
import { googleCalendarRepository } from './google-calendar.repository';
import type { GoogleBusyCalendarRow, GoogleConnectionRow } from './google-calendar.tables';
import type { SessionSync } from './session-sync.service';
import { GoogleGrantRevoked, type GoogleTokens } from './google-tokens';

export const WATCH_QUEUE = 'google-calendar.watch';
export const POLL_QUEUE = 'google-calendar.poll';
/** Channels asked for a week (Google may give less: its `expiration` is what counts), renewed a day before they end. */
const CHANNEL_TTL_S = 7 * 24 * 3600;
const RENEW_BEFORE_MS = 24 * 3_600_000;

type Deps = {
  db: Db;
  jobs: Jobs;
  api: GoogleCalendarApi;
  tokens: GoogleTokens;
  busy: BusySync;
  /** The sessions' reconciliation, run by each poll. */
  sessions: SessionSync;
  hash: (v: string) => string;
  publicUrl: string;
  pollMinutes: number;
  log: FastifyBaseLogger;
  clock: () => Date;
};

export type PushHeaders = { channelId?: string; token?: string; resourceId?: string; state?: string };

/**
 * Push notifications: an `events.watch` channel per chosen calendar, its token random and kept hashed,
 * renewed before the expiration Google gave; a notification whose channel, token and resource agree
 * queues that calendar's sync (one waiting per calendar). Polling is the fallback: every
 * GOOGLE_CALENDAR_POLL_MINUTES each chosen calendar is synced, and channels near their end renewed.
 */
export class Channels {
  constructor(private readonly d: Deps) {}

  readonly watchQueue: QueueDefinition<{ busyCalendarId: string }> = {
    name: WATCH_QUEUE,
    work: ({ busyCalendarId }) => this.watch(busyCalendarId),
    retryLimit: 4,
    retryDelaySeconds: 30,
  };

  get pollQueue(): QueueDefinition<Record<string, never>> {
    const m = this.d.pollMinutes;
    const expression = m < 60 ? `*/${m} * * * *` : `0 */${Math.min(24, Math.round(m / 60))} * * *`;
    return { name: POLL_QUEUE, work: () => this.poll(), retryLimit: 1, expireInSeconds: 300, cron: { expression, data: {} } };
  }

  enqueueWatch = (busyCalendarId: string) => this.d.jobs.reschedule(WATCH_QUEUE, busyCalendarId, { busyCalendarId });

  /** Whether this notification is one of ours; then its calendar's sync is queued. Never throws for Google's or a stranger's input. */
  async notified(h: PushHeaders): Promise<'queued' | 'unknown' | 'refused'> {
    if (!h.channelId || h.channelId.length > 200) return 'unknown';
    const cal = await googleCalendarRepository(this.d.db).byChannel(h.channelId);
    if (!cal?.channelTokenHash) return 'unknown';
    if (!h.token || !same(this.d.hash(h.token), cal.channelTokenHash) || h.resourceId !== cal.channelResourceId) return 'refused';
    await this.d.busy.enqueue(cal.id);
    return 'queued';
  }

  /** Opens a channel for the calendar (or a new one when the current ends within a day), then stops the old. */
  async watch(busyCalendarId: string) {
    const repo = googleCalendarRepository(this.d.db);
    const cal = await repo.busyCalendar(busyCalendarId);
    const conn = cal && (await repo.connection(cal.connectionId));
    if (!cal || !conn) return;
    const now = this.d.clock().getTime();
    if (cal.channelId && cal.channelExpiresAt && cal.channelExpiresAt.getTime() - RENEW_BEFORE_MS > now) return;
    const id = randomUUID();
    const token = randomBytes(32).toString('base64url');
    const address = `${this.d.publicUrl}/api/v1/google-calendar/notifications`;
    try {
      const answer = await this.d.tokens.with(conn, (t) =>
        this.d.api.watchEvents(t, cal.calendarId, { id, token, address, ttlSeconds: CHANNEL_TTL_S }),
      );
      const expiresAt = answer.expiration ? new Date(Number(answer.expiration)) : new Date(now + CHANNEL_TTL_S * 1000);
      await repo.updateCalendar(cal.id, {
        channelId: id,
        channelTokenHash: this.d.hash(token),
        channelResourceId: answer.resourceId,
        channelExpiresAt: expiresAt,
      });
    } catch (err) {
      // Google refuses channels to an address that is not https on a verified domain: polling stays.
      if (err instanceof GoogleGrantRevoked || (err instanceof GoogleApiError && !err.transient))
        return void this.d.log.warn({ calendar: cal.id, err: String(err) }, 'google calendar: no push channel, polling only');
      throw err;
    }
    if (cal.channelId && cal.channelResourceId) await this.stop(conn, cal);
  }

  /** Stops a calendar's channel at Google (best effort: an unknown channel is stopped already). */
  async stop(conn: GoogleConnectionRow, cal: Pick<GoogleBusyCalendarRow, 'channelId' | 'channelResourceId'>) {
    if (!cal.channelId || !cal.channelResourceId) return;
    try {
      await this.d.tokens.with(conn, (t) => this.d.api.stopChannel(t, cal.channelId!, cal.channelResourceId!));
    } catch (err) {
      this.d.log.warn({ channel: cal.channelId, err: String(err) }, 'google calendar: channel not stopped (it ends by itself)');
    }
  }

  /** The fallback: every chosen calendar synced, channels ending soon renewed, every connection's sessions reconciled. */
  async poll() {
    const repo = googleCalendarRepository(this.d.db);
    for (const c of await repo.connectionsWithCalendar()) await this.d.sessions.reconcile(c, this.d.clock());
    for (const { id } of await repo.allCalendars()) await this.d.busy.enqueue(id);
    for (const { id } of await repo.channelsExpiring(new Date(this.d.clock().getTime() + RENEW_BEFORE_MS))) await this.enqueueWatch(id);
  }
}

function same(a: string, b: string) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
