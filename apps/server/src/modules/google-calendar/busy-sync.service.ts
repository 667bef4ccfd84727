import type { FastifyBaseLogger } from 'fastify';
import { toInstant } from '@divan/core';
import type { Db } from '../../platform/db/database';
import type { Jobs, QueueDefinition } from '../../platform/jobs/jobs';
import { GoogleApiError, type GoogleCalendarApi, type GoogleEvent } from './google-api';
import { googleCalendarRepository, type BusyBlock } from './google-calendar.repository';
import type { GoogleBusyCalendarRow, GoogleConnectionRow } from './google-calendar.tables';
import { GoogleGrantRevoked, type GoogleTokens } from './google-tokens';

export const BUSY_QUEUE = 'google-calendar.busy';
type BusyJob = { busyCalendarId: string };
/** A full sync reads from a day ago on (what is past blocks nothing). */
const FULL_SYNC_FROM_MS = 24 * 3_600_000;
const MAX_PAGES = 200;

type Deps = {
  db: Db;
  jobs: Jobs;
  api: GoogleCalendarApi;
  tokens: GoogleTokens;
  log: FastifyBaseLogger;
  clock: () => Date;
  /** The member's busy times changed (the booking page's cached months go, their open calendar refetches). */
  changed: (workspaceId: string, userId: string) => void;
};

/** Busy or not: cancelled and "free" (transparent) events block nothing; neither does an event without times. */
export function busyBlockOf(e: GoogleEvent, timeZone: string): BusyBlock | null {
  if (e.status === 'cancelled' || e.transparency === 'transparent' || !e.start || !e.end) return null;
  const at = (t: { dateTime?: string; date?: string }) =>
    t.dateTime ? new Date(t.dateTime) : t.date ? toInstant(t.date, '00:00', timeZone) : null;
  const start = at(e.start);
  const end = at(e.end);
  if (!start || !end || Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || end <= start) return null;
  return { eventId: e.id, start, end };
}

/**
 * Google → Diván: a chosen calendar's busy times kept as blocks by incremental sync. Without a sync
 * token (the first time, or after Google answered 410 Gone) the calendar is read whole and its blocks
 * replaced in one transaction; with one, only the changes since are applied (upsert by event id, so a
 * replay changes nothing). The last page's `nextSyncToken` is kept for the next run. One waiting job
 * per calendar: a hundred pushes while one runs are one more run.
 */
export class BusySync {
  constructor(private readonly d: Deps) {}

  readonly queue: QueueDefinition<BusyJob> = {
    name: BUSY_QUEUE,
    work: ({ busyCalendarId }) => this.sync(busyCalendarId),
    retryLimit: 6,
    retryDelaySeconds: 5,
    retryBackoff: true,
  };

  async enqueue(busyCalendarId: string) {
    if ((await this.d.jobs.reschedule(BUSY_QUEUE, busyCalendarId, { busyCalendarId })) === null)
      await this.d.jobs.reschedule(BUSY_QUEUE, `${busyCalendarId}:again`, { busyCalendarId }, { startAfter: new Date(Date.now() + 1_000) });
  }

  async sync(busyCalendarId: string) {
    const repo = googleCalendarRepository(this.d.db);
    const cal = await repo.busyCalendar(busyCalendarId);
    const conn = cal && (await repo.connection(cal.connectionId));
    if (!cal || !conn) return;
    try {
      await this.run(cal, conn);
    } catch (err) {
      if (err instanceof GoogleGrantRevoked)
        return void this.d.log.warn({ connection: conn.id }, 'google calendar: grant revoked, busy times not read');
      if (err instanceof GoogleApiError && !err.transient)
        return void this.d.log.warn(
          { calendar: cal.id, status: err.status, reason: err.reason },
          'google calendar: busy calendar not readable',
        );
      throw err;
    }
  }

  private async run(cal: GoogleBusyCalendarRow, conn: GoogleConnectionRow) {
    const page = (syncToken: string | undefined, pageToken: string | undefined) =>
      this.d.tokens.with(conn, (token) =>
        this.d.api.listEvents(token, cal.calendarId, {
          syncToken,
          pageToken,
          timeMin: new Date(this.d.clock().getTime() - FULL_SYNC_FROM_MS).toISOString(),
        }),
      );
    let syncToken = cal.syncToken ?? undefined;
    let events: GoogleEvent[] = [];
    let next: string | undefined;
    for (;;) {
      try {
        events = [];
        let pageToken: string | undefined;
        let pages = 0;
        do {
          const p = await page(syncToken, pageToken);
          events.push(...(p.items ?? []));
          pageToken = p.nextPageToken;
          next = p.nextSyncToken;
        } while (pageToken && ++pages < MAX_PAGES);
        break;
      } catch (err) {
        // The token expired (or Google reset it): forget it and read the whole calendar again.
        if (err instanceof GoogleApiError && err.gone && syncToken) {
          syncToken = undefined;
          continue;
        }
        throw err;
      }
    }
    const full = !syncToken;
    const blocks: BusyBlock[] = [];
    const gone: string[] = [];
    // The last state of each event (a page may list an event twice when it changed while being read).
    for (const e of new Map(events.map((x) => [x.id, x])).values()) {
      const b = busyBlockOf(e, 'Europe/Madrid');
      if (b) blocks.push(b);
      else gone.push(e.id);
    }
    const owner = { id: cal.id, workspaceId: conn.workspaceId, userId: conn.userId };
    const changed = await this.d.db.transaction(async (tx) => {
      const repo = googleCalendarRepository(tx);
      // Still chosen? (the therapist may have removed it, or disconnected, while Google answered)
      if (!(await repo.busyCalendar(cal.id))) return false;
      const before = (await repo.blockLines(cal.id)).join('\n');
      if (full) await repo.dropAllBlocks(cal.id);
      else await repo.dropBlocks(cal.id, gone);
      await repo.upsertBlocks(owner, blocks);
      await repo.updateCalendar(cal.id, { syncToken: next ?? null, lastSyncedAt: this.d.clock() });
      await repo.update(conn.id, { lastSyncedAt: this.d.clock() });
      return (await repo.blockLines(cal.id)).join('\n') !== before;
    });
    // Only a sync that changed some block tells anyone (a poll finding nothing new is silent).
    if (changed) this.d.changed(conn.workspaceId, conn.userId);
  }
}
