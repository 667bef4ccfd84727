import { createHash, randomBytes } from 'node:crypto';
import { CALENDAR_FEED_DAYS_AHEAD, CALENDAR_FEED_DAYS_BACK, scopeFor, type CalendarFeed } from '@divan/core';
import type { Db } from '../../../platform/db/database';
import { AppError } from '../../../platform/errors';
import type { Caller } from '../../../platform/auth/caller';
import type { PatientsService } from '../../patients/patients.service';
import type { WorkspacesService } from '../../workspaces/workspaces.service';
import { feedCalendar } from './feed-calendar';
import { feedRepository } from './feed.repository';
import type { CalendarFeedRow } from './feed.tables';

const DAY = 86_400_000;
/** More than a year of anyone's sessions; a bound on one read all the same. */
const FEED_MAX_EVENTS = 5000;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
/** 256 random bits, URL-safe. */
const newToken = () => randomBytes(32).toString('base64url');

const present = (row: CalendarFeedRow | undefined, url?: string): CalendarFeed => ({
  active: !!row,
  showFullNames: row?.showFullNames ?? false,
  createdAt: row?.createdAt.toISOString() ?? null,
  lastReadAt: row?.lastReadAt?.toISOString() ?? null,
  ...(url ? { url } : {}),
});

/**
 * A therapist's private calendar feed per workspace: their own sessions (60 days back, a year ahead) as
 * iCal at an unguessable URL, for Google Calendar, Apple Calendar or Outlook. The token is stored hashed;
 * revoking deletes it, regenerating replaces it. Each read checks again that the person is still a member
 * who reads sessions: a feed dies with the membership.
 */
export class CalendarFeedService {
  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
    private readonly workspaces: WorkspacesService,
    private readonly publicUrl: string,
  ) {}

  async get(c: Caller): Promise<CalendarFeed> {
    return present(await feedRepository(this.db).ofMember(c.member.workspaceId, c.userId));
  }

  /** Makes the feed, or a new URL for it (the old one stops working); the URL is in this answer only. */
  async regenerate(c: Caller, showFullNames?: boolean): Promise<CalendarFeed> {
    const repo = feedRepository(this.db);
    const keep = (await repo.ofMember(c.member.workspaceId, c.userId))?.showFullNames ?? false;
    const token = newToken();
    const row = await repo.replace(c.member.workspaceId, c.userId, hashOf(token), showFullNames ?? keep);
    return present(row, this.urlOf(token));
  }

  async update(c: Caller, showFullNames: boolean): Promise<CalendarFeed> {
    const row = await feedRepository(this.db).setShowFullNames(c.member.workspaceId, c.userId, showFullNames);
    if (!row) throw new AppError('not_found');
    return present(row);
  }

  /** Revoked, whether there was one or not: the URL (if any) answers 404 from now on. */
  async revoke(c: Caller) {
    await feedRepository(this.db).delete(c.member.workspaceId, c.userId);
  }

  /** The iCal text for a token; 404 for an unknown or revoked one, or someone no longer allowed to read their sessions. */
  async render(token: string, now = new Date()): Promise<string> {
    const repo = feedRepository(this.db);
    const feed = /^[A-Za-z0-9_-]{43}$/.test(token) ? await repo.byTokenHash(hashOf(token)) : undefined;
    if (!feed) throw new AppError('not_found');
    const member = await this.workspaces.resolveMembership(feed.workspaceId, feed.userId);
    if (!member || scopeFor(member.ability, 'read', 'sessions', feed.userId).kind === 'none') throw new AppError('not_found');
    const from = new Date(now.getTime() - CALENDAR_FEED_DAYS_BACK * DAY);
    const to = new Date(now.getTime() + CALENDAR_FEED_DAYS_AHEAD * DAY);
    const sessions = await repo.sessionsOf(feed.workspaceId, feed.userId, from, to, FEED_MAX_EVENTS);
    const [names, workspaceName] = await Promise.all([
      this.patients.namesOf(
        feed.workspaceId,
        sessions.map((s) => s.patientId),
      ),
      this.workspaces.nameOf(feed.workspaceId),
    ]);
    await repo.touch(feed.id, now);
    return feedCalendar({
      calendarName: `Diván · ${workspaceName ?? 'Agenda'}`,
      sessions,
      patientName: (id) => names.get(id) ?? '',
      showFullNames: feed.showFullNames,
      appLink: (id) => `${this.publicUrl}/calendar?session=${id}`,
    });
  }

  private urlOf(token: string) {
    return `${this.publicUrl}/api/v1/calendar-feeds/${token}.ics`;
  }
}
