import { and, eq, sql } from 'drizzle-orm';
import { REMINDER_MAX_OFFSET_MINUTES } from '@divan/core';
import type { DbOrTx } from '../../../platform/db/database';
import { locations, sessions, type SessionRow } from '../sessions.tables';
import { memberNotificationSettings, sessionReminderSends } from './reminders.tables';

export type ReminderOutcome = (typeof sessionReminderSends.$inferInsert)['outcome'];
export type ReminderSession = SessionRow & { locationName: string | null; locationAddress: string | null };

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

/**
 * Sessions with a reminder due at `now` and not handled yet: pending, not started, starting within the
 * longest offset allowed. Served by the partial index `sessions_reminders_due_idx` (pending sessions
 * with reminders, by start): it reads the coming 30 days' sessions that have reminders, never the past.
 */
export function dueSessionsQuery(now: Date, limit: number) {
  const horizon = new Date(now.getTime() + REMINDER_MAX_OFFSET_MINUTES * 60_000);
  return sql`
    select s.id
    from ${sessions} s
    cross join lateral jsonb_array_elements_text(s.reminders) as r(minutes)
    where s.status = 'pending' and s.reminders <> '[]'::jsonb
      and s.starts_at > ${now.toISOString()}::timestamptz and s.starts_at <= ${horizon.toISOString()}::timestamptz
      and s.starts_at - (r.minutes::int * interval '1 minute') <= ${now.toISOString()}::timestamptz
      and not exists (
        select 1 from ${sessionReminderSends} c
        where c.session_id = s.id and c.offset_minutes = r.minutes::int and c.starts_at = s.starts_at)
    group by s.id, s.starts_at
    order by s.starts_at, s.id
    limit ${limit}`;
}

export function remindersRepository(db: DbOrTx) {
  return {
    /** Sessions with a reminder due at `now` and not handled yet, earliest first (`dueSessionsQuery`). */
    async dueSessionIds(now: Date, limit: number): Promise<string[]> {
      return rowsOf<{ id: string }>(await db.execute(dueSessionsQuery(now, limit))).map((r) => r.id);
    },

    /** The session with its place, locked against a move or a cancellation until this transaction ends. */
    async lockSession(id: string): Promise<ReminderSession | undefined> {
      const [row] = await db
        .select({ s: sessions, locationName: locations.name, locationAddress: locations.address })
        .from(sessions)
        .leftJoin(locations, eq(locations.id, sessions.locationId))
        .where(eq(sessions.id, id))
        .for('share', { of: sessions });
      return row && { ...row.s, locationName: row.locationName, locationAddress: row.locationAddress };
    },

    /** Offsets already handled for the session at this start. */
    async handled(sessionId: string, startsAt: Date): Promise<Set<number>> {
      const rows = await db
        .select({ m: sessionReminderSends.offsetMinutes })
        .from(sessionReminderSends)
        .where(and(eq(sessionReminderSends.sessionId, sessionId), eq(sessionReminderSends.startsAt, startsAt)));
      return new Set(rows.map((r) => r.m));
    },

    /** Claims each (session, offset, start); returns the offsets this transaction claimed (the others were claimed elsewhere). */
    async claim(workspaceId: string, sessionId: string, startsAt: Date, outcomes: Map<number, ReminderOutcome>): Promise<Set<number>> {
      if (!outcomes.size) return new Set();
      const rows = await db
        .insert(sessionReminderSends)
        .values([...outcomes].map(([offsetMinutes, outcome]) => ({ workspaceId, sessionId, startsAt, offsetMinutes, outcome })))
        .onConflictDoNothing()
        .returning({ m: sessionReminderSends.offsetMinutes });
      return new Set(rows.map((r) => r.m));
    },

    /** Claims of sessions that started before `before`: never looked at again (a batch at a time). */
    async purgeBefore(before: Date, limit: number): Promise<number> {
      const res = await db.execute(sql`
        delete from ${sessionReminderSends} where ctid in (
          select ctid from ${sessionReminderSends} where starts_at < ${before.toISOString()}::timestamptz limit ${limit})
        returning 1 as gone`);
      return rowsOf(res).length;
    },

    /** What happened to a session's reminders (tests, support). */
    sends: (sessionId: string) => db.select().from(sessionReminderSends).where(eq(sessionReminderSends.sessionId, sessionId)),

    async settings(workspaceId: string, userId: string) {
      const [row] = await db
        .select()
        .from(memberNotificationSettings)
        .where(and(eq(memberNotificationSettings.workspaceId, workspaceId), eq(memberNotificationSettings.userId, userId)));
      return row;
    },

    async saveSettings(values: typeof memberNotificationSettings.$inferInsert) {
      const [row] = await db
        .insert(memberNotificationSettings)
        .values(values)
        .onConflictDoUpdate({
          target: [memberNotificationSettings.workspaceId, memberNotificationSettings.userId],
          set: {
            reminderOffsets: values.reminderOffsets,
            notifyPatientCanceled: values.notifyPatientCanceled,
            notifyPatientBooked: values.notifyPatientBooked,
            updatedAt: new Date(),
          },
        })
        .returning();
      return row!;
    },
  };
}
