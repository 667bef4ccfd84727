import type { FastifyBaseLogger } from 'fastify';
import { randomUUID } from 'node:crypto';
import {
  DEFAULT_TIME_ZONE,
  GOOGLE_BUSY_RANGE_MAX_DAYS,
  type GoogleBusyBlock,
  type GoogleCalendarCallback,
  type GoogleCalendarItem,
  type GoogleCalendarSettings,
  type GoogleCalendarStatus,
  type GoogleSessionLink,
} from '@divan/core';
import type { Caller } from '../../platform/auth/caller';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { CalendarSessions } from '../sessions/calendar-sync.queries';
import type { SessionsService } from '../sessions/sessions.service';
import type { BusySync } from './busy-sync.service';
import type { Channels } from './channels.service';
import { GoogleApiError, type GoogleCalendarApi } from './google-api';
import { googleCalendarRepository } from './google-calendar.repository';
import type { GoogleConnectionRow } from './google-calendar.tables';
import type { GoogleOAuth } from './google-oauth';
import { GoogleGrantRevoked, type GoogleTokens } from './google-tokens';
import type { SessionSync } from './session-sync.service';

const STATE_TTL_MS = 10 * 60_000;
/** The future sessions existing before connecting that one press of the button sends at most. */
const EXISTING_MAX = 500;
export const DIVAN_CALENDAR_NAME = 'Diván';

type Deps = {
  db: Db;
  oauth: GoogleOAuth | null;
  api: GoogleCalendarApi;
  tokens: GoogleTokens;
  sessionSync: SessionSync;
  busy: BusySync;
  channels: Channels;
  calendarSessions: CalendarSessions;
  sessions: SessionsService;
  hash: (v: string) => string;
  log: FastifyBaseLogger;
  clock: () => Date;
  changed: (workspaceId: string, userId: string) => void;
};

/** A therapist's own Google Calendar connection in a workspace: connect, settings, disconnect, and what it shows. */
export class GoogleCalendarService {
  constructor(private readonly d: Deps) {}

  get enabled() {
    return !!this.d.oauth;
  }

  private oauth(): GoogleOAuth {
    if (!this.d.oauth) throw new AppError('google_calendar_disabled');
    return this.d.oauth;
  }

  private repo = () => googleCalendarRepository(this.d.db);

  private async connected(c: Caller): Promise<GoogleConnectionRow> {
    const conn = await this.repo().connectionOf(c.member.workspaceId, c.userId);
    if (!conn) throw new AppError('google_calendar_not_connected');
    return conn;
  }

  async status(c: Caller): Promise<GoogleCalendarStatus> {
    const conn = this.enabled ? await this.repo().connectionOf(c.member.workspaceId, c.userId) : undefined;
    if (!conn)
      return {
        enabled: this.enabled,
        connected: false,
        googleEmail: null,
        connectedAt: null,
        titleFormat: 'initials',
        calendars: [],
        busyCalendarIds: [],
        lastSyncedAt: null,
        existingSynced: false,
      };
    const chosen = await this.repo().calendarsOf(conn.id);
    return {
      enabled: true,
      connected: true,
      googleEmail: conn.googleEmail,
      connectedAt: conn.connectedAt.toISOString(),
      titleFormat: conn.titleFormat,
      calendars: await this.calendarsOf(conn).catch(() => []),
      busyCalendarIds: chosen.map((x) => x.calendarId),
      lastSyncedAt: conn.lastSyncedAt?.toISOString() ?? null,
      existingSynced: !!conn.existingSyncedAt,
    };
  }

  /** The account's calendars but the Diván one (read from Google each time: the list is short). */
  private async calendarsOf(conn: GoogleConnectionRow): Promise<GoogleCalendarItem[]> {
    const list = await this.d.tokens.with(conn, (t) => this.d.api.listCalendars(t));
    return list
      .filter((x) => x.id !== conn.divanCalendarId)
      .map((x) => ({ id: x.id, name: x.summaryOverride ?? x.summary ?? x.id, primary: !!x.primary, color: x.backgroundColor ?? null }));
  }

  async authorize(c: Caller): Promise<{ url: string }> {
    const { state, codeVerifier, url } = await this.oauth().start();
    const now = this.d.clock();
    await this.repo().purgeStates(now);
    await this.repo().addState({
      stateHash: this.d.hash(state),
      workspaceId: c.member.workspaceId,
      userId: c.userId,
      codeVerifier,
      expiresAt: new Date(now.getTime() + STATE_TTL_MS),
    });
    return { url };
  }

  /** The end of the round trip: the state taken (once, by whoever started it), the code exchanged, the Diván calendar made. */
  async callback(c: Caller, body: GoogleCalendarCallback): Promise<GoogleCalendarStatus> {
    const oauth = this.oauth();
    const st = await this.repo().takeState(this.d.hash(body.state), this.d.clock());
    if (!st || st.workspaceId !== c.member.workspaceId || st.userId !== c.userId) throw new AppError('google_oauth_state_invalid');
    const t = await oauth.exchange(body.code, body.state, st.codeVerifier);
    // Without offline access nothing could sync later (spec §8): the grant is given back.
    if (!t.refreshToken) {
      await oauth.revoke(t.accessToken).catch(() => undefined);
      throw new AppError('google_refresh_token_missing');
    }
    const existing = await this.repo().connectionOf(c.member.workspaceId, c.userId);
    const id = existing?.id ?? randomUUID();
    const sealed = await this.d.tokens.seal(c.member.workspaceId, id, { refreshToken: t.refreshToken, accessToken: t.accessToken });
    const conn = await this.repo().connect({
      id,
      workspaceId: c.member.workspaceId,
      userId: c.userId,
      ...sealed,
      accessExpiresAt: t.expiresAt,
      connectedAt: existing?.connectedAt ?? this.d.clock(),
    });
    try {
      const list = await this.d.api.listCalendars(t.accessToken);
      const primary = list.find((x) => x.primary);
      const divan = conn.divanCalendarId && list.some((x) => x.id === conn.divanCalendarId) ? conn.divanCalendarId : null;
      const divanCalendarId = divan ?? (await this.d.api.insertCalendar(t.accessToken, DIVAN_CALENDAR_NAME, DEFAULT_TIME_ZONE)).id;
      await this.repo().update(conn.id, { googleEmail: primary?.id ?? null, divanCalendarId });
    } catch (err) {
      if (!(err instanceof GoogleApiError)) throw err;
      // Connected but unusable: undone, so nothing half-made stays.
      await this.repo().remove(conn.id);
      await oauth.revoke(t.refreshToken).catch(() => undefined);
      throw new AppError('google_calendar_unavailable');
    }
    return this.status(c);
  }

  async updateSettings(c: Caller, body: GoogleCalendarSettings): Promise<GoogleCalendarStatus> {
    const conn = await this.connected(c);
    if (body.titleFormat && body.titleFormat !== conn.titleFormat) {
      await this.repo().update(conn.id, { titleFormat: body.titleFormat });
      // The events already in Google take the new title too (the jobs send only what they may).
      for (const id of await this.d.calendarSessions.futureIds(conn.workspaceId, conn.userId, this.d.clock(), EXISTING_MAX))
        await this.d.sessionSync.enqueue(id);
    }
    if (body.busyCalendarIds) {
      const wanted = [...new Set(body.busyCalendarIds)];
      if (wanted.length) {
        const known = new Set((await this.calendarsOrUnavailable(conn)).map((x) => x.id));
        if (wanted.some((id) => !known.has(id))) throw new AppError('google_calendar_unknown_calendar');
      }
      const { removed, added } = await this.repo().chooseCalendars(conn.workspaceId, conn.id, wanted);
      for (const cal of removed) await this.d.channels.stop(conn, cal);
      for (const cal of added) {
        await this.d.busy.enqueue(cal.id);
        await this.d.channels.enqueueWatch(cal.id);
      }
      if (removed.length) this.d.changed(conn.workspaceId, conn.userId);
    }
    return this.status(c);
  }

  private async calendarsOrUnavailable(conn: GoogleConnectionRow) {
    try {
      return await this.calendarsOf(conn);
    } catch (err) {
      if (err instanceof GoogleApiError || err instanceof GoogleGrantRevoked) throw new AppError('google_calendar_unavailable');
      throw err;
    }
  }

  /** «Sincronizar también las sesiones futuras existentes»: from now on every session of the therapist counts, the future ones are queued. */
  async syncExisting(c: Caller): Promise<{ queued: number }> {
    const conn = await this.connected(c);
    await this.repo().update(conn.id, { existingSyncedAt: this.d.clock() });
    const ids = await this.d.calendarSessions.futureIds(conn.workspaceId, conn.userId, this.d.clock(), EXISTING_MAX);
    for (const id of ids) await this.d.sessionSync.enqueue(id);
    return { queued: ids.length };
  }

  /** Revoked at Google, channels stopped, every token and mapping deleted: nothing left that could sync. */
  async disconnect(c: Caller): Promise<void> {
    const conn = await this.repo().connectionOf(c.member.workspaceId, c.userId);
    if (conn) await this.drop(conn);
  }

  /**
   * After a change of the workspace's members: the connection of someone no longer a member is ended as
   * a disconnection would (channels stopped, grant revoked at Google, tokens deleted) — their sessions
   * there stop syncing.
   */
  async dropFormerMembers(workspaceId: string, isMember: (workspaceId: string, userId: string) => Promise<boolean>) {
    for (const conn of await this.repo().connectionsOfWorkspace(workspaceId))
      if (!(await isMember(workspaceId, conn.userId))) await this.drop(conn);
  }

  /** A patient erased (their sessions deleted at once, without session events): the workspace's connections reconciled. */
  async reconcileWorkspace(workspaceId: string) {
    for (const conn of await this.repo().connectionsOfWorkspace(workspaceId))
      if (conn.divanCalendarId) await this.d.sessionSync.reconcile(conn, this.d.clock());
  }

  private async drop(conn: GoogleConnectionRow) {
    for (const cal of await this.repo().calendarsOf(conn.id)) await this.d.channels.stop(conn, cal);
    const refresh = await this.d.tokens.refreshTokenOf(conn);
    await this.repo().remove(conn.id);
    this.d.changed(conn.workspaceId, conn.userId);
    await this.d.oauth
      ?.revoke(refresh)
      .catch((err: unknown) => this.d.log.warn({ err: String(err) }, 'google calendar: revocation failed (the tokens are deleted here)'));
  }

  /** The caller's own busy times in [from, to): times only, merged. */
  async busy(c: Caller, q: { from: string; to: string }): Promise<{ items: GoogleBusyBlock[] }> {
    const from = new Date(q.from);
    const to = new Date(q.to);
    if (to <= from || to.getTime() - from.getTime() > GOOGLE_BUSY_RANGE_MAX_DAYS * 86_400_000)
      throw new AppError('google_busy_range_too_long');
    const rows = await this.busyOf(this.d.db, c.member.workspaceId, c.userId, from, to);
    return { items: rows.map((r) => ({ start: r.start.toISOString(), end: r.end.toISOString() })) };
  }

  /** What booking's slots and the calendar read: the member's busy times, overlapping ones merged. */
  async busyOf(db: Parameters<typeof googleCalendarRepository>[0], workspaceId: string, userId: string, from: Date, to: Date) {
    const rows = await googleCalendarRepository(db).busyOf(workspaceId, userId, from, to);
    const out: { start: Date; end: Date }[] = [];
    for (const r of rows) {
      const last = out.at(-1);
      if (last && r.start <= last.end) last.end = r.end > last.end ? r.end : last.end;
      else out.push({ start: r.start, end: r.end });
    }
    return out;
  }

  async sessionLink(c: Caller, sessionId: string): Promise<GoogleSessionLink> {
    const s = await this.d.sessions.accessible(c, sessionId);
    const conn = await this.repo().connectionOf(c.member.workspaceId, s.therapistId);
    const m = conn ? await this.repo().sessionEvent(conn.id, sessionId) : undefined;
    return { synced: !!m, meetLink: m?.meetLink ?? null };
  }
}
