import { and, asc, eq, gt, inArray, isNotNull, lt, lte, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import {
  googleBusyBlocks,
  googleBusyCalendars,
  googleCalendarConnections,
  googleOauthStates,
  googleSessionEvents,
  type GoogleConnectionRow,
} from './google-calendar.tables';

export type BusyBlock = { eventId: string; start: Date; end: Date };

export const googleCalendarRepository = (db: DbOrTx) => ({
  // OAuth states: kept hashed, taken once.
  async addState(row: typeof googleOauthStates.$inferInsert) {
    await db.insert(googleOauthStates).values(row);
  },
  async takeState(stateHash: string, now: Date) {
    const [row] = await db.delete(googleOauthStates).where(eq(googleOauthStates.stateHash, stateHash)).returning();
    return row && row.expiresAt > now ? row : undefined;
  },
  async purgeStates(now: Date) {
    const rows = await db
      .delete(googleOauthStates)
      .where(lt(googleOauthStates.expiresAt, now))
      .returning({ h: googleOauthStates.stateHash });
    return rows.length;
  },

  // Connections.
  async connectionOf(workspaceId: string, userId: string) {
    const [row] = await db
      .select()
      .from(googleCalendarConnections)
      .where(and(eq(googleCalendarConnections.workspaceId, workspaceId), eq(googleCalendarConnections.userId, userId)));
    return row;
  },
  async connection(id: string) {
    const [row] = await db.select().from(googleCalendarConnections).where(eq(googleCalendarConnections.id, id));
    return row;
  },
  /** A new connection, or the member's existing one with the new grant (its settings kept, its sync state reset). */
  async connect(row: typeof googleCalendarConnections.$inferInsert): Promise<GoogleConnectionRow> {
    const [out] = await db
      .insert(googleCalendarConnections)
      .values(row)
      .onConflictDoUpdate({
        target: [googleCalendarConnections.workspaceId, googleCalendarConnections.userId],
        set: {
          googleEmail: row.googleEmail,
          refreshToken: row.refreshToken,
          accessToken: row.accessToken,
          accessExpiresAt: row.accessExpiresAt,
          connectedAt: row.connectedAt,
        },
      })
      .returning();
    return out!;
  },
  async update(id: string, set: Partial<typeof googleCalendarConnections.$inferInsert>) {
    await db.update(googleCalendarConnections).set(set).where(eq(googleCalendarConnections.id, id));
  },
  /** Disconnecting: the row goes, and with it (cascades) its calendars, channels, blocks and mappings. */
  async remove(id: string) {
    await db.delete(googleCalendarConnections).where(eq(googleCalendarConnections.id, id));
  },
  /** The connections of the workspace's members among `userIds` (a session's therapist). */
  connectionsOfWorkspace: (workspaceId: string) =>
    db.select().from(googleCalendarConnections).where(eq(googleCalendarConnections.workspaceId, workspaceId)),
  async connectionsOfUser(workspaceId: string, userId: string) {
    return db
      .select()
      .from(googleCalendarConnections)
      .where(and(eq(googleCalendarConnections.workspaceId, workspaceId), eq(googleCalendarConnections.userId, userId)));
  },

  // Busy calendars.
  calendarsOf: (connectionId: string) =>
    db
      .select()
      .from(googleBusyCalendars)
      .where(eq(googleBusyCalendars.connectionId, connectionId))
      .orderBy(asc(googleBusyCalendars.calendarId)),
  async busyCalendar(id: string) {
    const [row] = await db.select().from(googleBusyCalendars).where(eq(googleBusyCalendars.id, id));
    return row;
  },
  async byChannel(channelId: string) {
    const [row] = await db.select().from(googleBusyCalendars).where(eq(googleBusyCalendars.channelId, channelId));
    return row;
  },
  /** Keeps exactly `calendarIds` for the connection; answers the removed rows (their channels to stop) and the added ones. */
  async chooseCalendars(workspaceId: string, connectionId: string, calendarIds: string[]) {
    const removed = await db
      .delete(googleBusyCalendars)
      .where(
        and(
          eq(googleBusyCalendars.connectionId, connectionId),
          calendarIds.length ? notInArray(googleBusyCalendars.calendarId, calendarIds) : sql`true`,
        ),
      )
      .returning();
    const added = calendarIds.length
      ? await db
          .insert(googleBusyCalendars)
          .values(calendarIds.map((calendarId) => ({ workspaceId, connectionId, calendarId })))
          .onConflictDoNothing()
          .returning()
      : [];
    return { removed, added };
  },
  async updateCalendar(id: string, set: Partial<typeof googleBusyCalendars.$inferInsert>) {
    await db.update(googleBusyCalendars).set(set).where(eq(googleBusyCalendars.id, id));
  },
  /** Every busy calendar (the polling fallback), and those whose channel expires before `before` (renewal). */
  allCalendars: () => db.select({ id: googleBusyCalendars.id }).from(googleBusyCalendars),
  channelsExpiring: (before: Date) =>
    db
      .select({ id: googleBusyCalendars.id })
      .from(googleBusyCalendars)
      .where(and(isNotNull(googleBusyCalendars.channelId), lte(googleBusyCalendars.channelExpiresAt, before))),

  // Busy blocks.
  async upsertBlocks(cal: { id: string; workspaceId: string; userId: string }, blocks: BusyBlock[]) {
    if (!blocks.length) return;
    await db
      .insert(googleBusyBlocks)
      .values(
        blocks.map((b) => ({
          busyCalendarId: cal.id,
          eventId: b.eventId,
          workspaceId: cal.workspaceId,
          userId: cal.userId,
          startsAt: b.start,
          endsAt: b.end,
        })),
      )
      .onConflictDoUpdate({
        target: [googleBusyBlocks.busyCalendarId, googleBusyBlocks.eventId],
        set: { startsAt: sql`excluded.starts_at`, endsAt: sql`excluded.ends_at` },
      });
  },
  async dropBlocks(busyCalendarId: string, eventIds: string[]) {
    if (!eventIds.length) return;
    await db
      .delete(googleBusyBlocks)
      .where(and(eq(googleBusyBlocks.busyCalendarId, busyCalendarId), inArray(googleBusyBlocks.eventId, eventIds)));
  },
  /** Busy times over before `before` block nothing any more (the hourly sweep). */
  async purgePastBlocks(before: Date) {
    const rows = await db.delete(googleBusyBlocks).where(lt(googleBusyBlocks.endsAt, before)).returning({ e: googleBusyBlocks.eventId });
    return rows.length;
  },
  /** A calendar's busy blocks as `eventId start end` lines, sorted (to tell whether a sync changed anything). */
  async blockLines(busyCalendarId: string): Promise<string[]> {
    const rows = await db
      .select({ e: googleBusyBlocks.eventId, s: googleBusyBlocks.startsAt, t: googleBusyBlocks.endsAt })
      .from(googleBusyBlocks)
      .where(eq(googleBusyBlocks.busyCalendarId, busyCalendarId));
    return rows.map((r) => `${r.e} ${r.s.toISOString()} ${r.t.toISOString()}`).sort();
  },
  async dropAllBlocks(busyCalendarId: string) {
    await db.delete(googleBusyBlocks).where(eq(googleBusyBlocks.busyCalendarId, busyCalendarId));
  },
  /** The member's busy times overlapping [from, to), merged by the caller. */
  busyOf: (workspaceId: string, userId: string, from: Date, to: Date) =>
    db
      .select({ start: googleBusyBlocks.startsAt, end: googleBusyBlocks.endsAt })
      .from(googleBusyBlocks)
      .where(
        and(
          eq(googleBusyBlocks.workspaceId, workspaceId),
          eq(googleBusyBlocks.userId, userId),
          lt(googleBusyBlocks.startsAt, to),
          gt(googleBusyBlocks.endsAt, from),
        ),
      )
      .orderBy(asc(googleBusyBlocks.startsAt))
      .limit(5_000),

  // Session ↔ event mapping.
  async sessionEvent(connectionId: string, sessionId: string) {
    const [row] = await db
      .select()
      .from(googleSessionEvents)
      .where(and(eq(googleSessionEvents.connectionId, connectionId), eq(googleSessionEvents.sessionId, sessionId)));
    return row;
  },
  eventsOfConnection: (connectionId: string) =>
    db
      .select({ sessionId: googleSessionEvents.sessionId, updatedAt: googleSessionEvents.updatedAt })
      .from(googleSessionEvents)
      .where(eq(googleSessionEvents.connectionId, connectionId)),
  /** Every connection with its Diván calendar (the poll's reconciliation). */
  connectionsWithCalendar: () => db.select().from(googleCalendarConnections).where(isNotNull(googleCalendarConnections.divanCalendarId)),
  eventsOfSession: (sessionId: string) => db.select().from(googleSessionEvents).where(eq(googleSessionEvents.sessionId, sessionId)),
  async saveSessionEvent(row: typeof googleSessionEvents.$inferInsert) {
    await db
      .insert(googleSessionEvents)
      .values(row)
      .onConflictDoUpdate({
        target: [googleSessionEvents.connectionId, googleSessionEvents.sessionId],
        set: { googleEventId: row.googleEventId, etag: row.etag, meetLink: row.meetLink, updatedAt: sql`now()` },
      });
  },
  async dropSessionEvent(connectionId: string, sessionId: string) {
    await db
      .delete(googleSessionEvents)
      .where(and(eq(googleSessionEvents.connectionId, connectionId), eq(googleSessionEvents.sessionId, sessionId)));
  },
});
