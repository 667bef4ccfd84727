import { and, asc, count, eq, gt, gte, lt, ne, or, type SQL } from 'drizzle-orm';
import { SESSION_MAX_MINUTES, type Scope } from '@divan/core';
import type { DbOrTx } from '../../platform/db/database';
import { gridRows, type GridRow } from './session-grid.queries';

export type { GridRow };
import { sessionSeries, type SessionSeriesRow } from './series/session-series.tables';
import { locations, sessions, type NewSession, type SessionRow } from './sessions.tables';

/** What a session's response says of its series. */
export type SeriesInfo = Pick<SessionSeriesRow, 'frequency' | 'startDay' | 'startTime' | 'monthlyWeek'>;
/** A session with its location's name and its series' pattern (the patient's and therapist's names come through their services). */
export type SessionWithLocation = SessionRow & { locationName: string | null; seriesInfo?: SeriesInfo | null };

/** A session as the calendar grid reads it (session-grid): the columns its box draws. */
/** "Is owner" for sessions is the therapist: an `own` scope is a WHERE on it, never a post-filter. */
function scoped(scope: Scope, ...conds: (SQL | undefined)[]): SQL | undefined {
  if (scope.kind === 'own') conds.push(eq(sessions.therapistId, scope.ownerId));
  return and(...conds);
}

export type RangeFilter = { from: Date; to: Date; therapistId?: string; patientId?: string; status?: SessionRow['status']; limit: number };

/** The sessions starting in the filter's [from, to) that `scope` may read, with its other filters. */
const inRange = (workspaceId: string, scope: Scope, f: RangeFilter) =>
  scoped(
    scope,
    eq(sessions.workspaceId, workspaceId),
    gte(sessions.startsAt, f.from),
    lt(sessions.startsAt, f.to),
    f.therapistId ? eq(sessions.therapistId, f.therapistId) : undefined,
    f.patientId ? eq(sessions.patientId, f.patientId) : undefined,
    f.status ? eq(sessions.status, f.status) : undefined,
  );

export function sessionsRepository(db: DbOrTx) {
  const selectView = () =>
    db
      .select({
        s: sessions,
        locationName: locations.name,
        frequency: sessionSeries.frequency,
        startDay: sessionSeries.startDay,
        startTime: sessionSeries.startTime,
        monthlyWeek: sessionSeries.monthlyWeek,
      })
      .from(sessions)
      .leftJoin(locations, eq(locations.id, sessions.locationId))
      .leftJoin(sessionSeries, eq(sessionSeries.id, sessions.seriesId));
  type ViewRow = { s: SessionRow; locationName: string | null } & { [K in keyof SeriesInfo]: SeriesInfo[K] | null };
  const toView = ({ s, locationName, frequency, startDay, startTime, monthlyWeek }: ViewRow): SessionWithLocation => ({
    ...s,
    locationName,
    seriesInfo: frequency && startDay && startTime ? { frequency, startDay, startTime, monthlyWeek } : null,
  });

  return {
    async find(workspaceId: string, id: string, scope: Scope): Promise<SessionWithLocation | undefined> {
      if (scope.kind === 'none') return undefined;
      const [row] = await selectView().where(scoped(scope, eq(sessions.workspaceId, workspaceId), eq(sessions.id, id)));
      return row && toView(row);
    },
    /** Sessions starting in [from, to), by start; the range and the limit are bounded by the caller. */
    async range(workspaceId: string, scope: Scope, f: RangeFilter): Promise<SessionWithLocation[]> {
      if (scope.kind === 'none') return [];
      const rows = await selectView()
        .where(inRange(workspaceId, scope, f))
        .orderBy(asc(sessions.startsAt), asc(sessions.id))
        .limit(f.limit);
      return rows.map(toView);
    },
    /**
     * The calendar grid's range read (session-grid): the range's sessions as `range` reads them, only the
     * columns a box draws, with the location's name and the series' pattern.
     */
    gridRange(workspaceId: string, scope: Scope, f: RangeFilter): Promise<GridRow[]> {
      if (scope.kind === 'none') return Promise.resolve([]);
      return gridRows(db, inRange(workspaceId, scope, f), f.limit);
    },
    /**
     * A therapist's time taken in [from, to): every session not canceled, whatever its origin, by start
     * (but `exceptId`, a session being moved). A session lasts at most SESSION_MAX_MINUTES: the start's
     * lower bound keeps the index scan to the range.
     */
    busyOf(workspaceId: string, therapistId: string, from: Date, to: Date, exceptId?: string): Promise<{ start: Date; end: Date }[]> {
      const earliest = new Date(from.getTime() - SESSION_MAX_MINUTES * 60_000);
      return db
        .select({ start: sessions.startsAt, end: sessions.endsAt })
        .from(sessions)
        .where(
          and(
            eq(sessions.workspaceId, workspaceId),
            eq(sessions.therapistId, therapistId),
            ne(sessions.status, 'canceled'),
            gte(sessions.startsAt, earliest),
            lt(sessions.startsAt, to),
            gt(sessions.endsAt, from),
            exceptId ? ne(sessions.id, exceptId) : undefined,
          ),
        )
        .orderBy(asc(sessions.startsAt));
    },
    /**
     * Other sessions, not canceled, overlapping [start, end) with the same therapist or in the same
     * location. Whole workspace: a double booking is one whoever's the other session is.
     */
    async overlapping(
      workspaceId: string,
      start: Date,
      end: Date,
      therapistId: string,
      locationId: string | null,
      exceptId?: string,
    ): Promise<SessionRow[]> {
      return db
        .select()
        .from(sessions)
        .where(
          and(
            eq(sessions.workspaceId, workspaceId),
            ne(sessions.status, 'canceled'),
            lt(sessions.startsAt, end),
            gt(sessions.endsAt, start),
            exceptId ? ne(sessions.id, exceptId) : undefined,
            locationId
              ? or(eq(sessions.therapistId, therapistId), eq(sessions.locationId, locationId))
              : eq(sessions.therapistId, therapistId),
          ),
        )
        .orderBy(asc(sessions.startsAt))
        .limit(50);
    },
    /** A session by id in the workspace, whoever may read it, with its location's name and address (the booking's reads). */
    async withPlace(workspaceId: string, id: string) {
      const [row] = await db
        .select({ s: sessions, name: locations.name, address: locations.address })
        .from(sessions)
        .leftJoin(locations, eq(locations.id, sessions.locationId))
        .where(and(eq(sessions.workspaceId, workspaceId), eq(sessions.id, id)));
      return row;
    },
    /** A session by its id alone, for a caller that proved its right to it otherwise (no clinical field). */
    async byId(sessionId: string) {
      const [row] = await db
        .select({
          id: sessions.id,
          workspaceId: sessions.workspaceId,
          therapistId: sessions.therapistId,
          startsAt: sessions.startsAt,
          endsAt: sessions.endsAt,
          timeZone: sessions.timeZone,
          status: sessions.status,
          videoConference: sessions.videoConference,
        })
        .from(sessions)
        .where(eq(sessions.id, sessionId));
      return row;
    },
    /** The patient's sessions booked through the public service that have not started at `now` and are not canceled. */
    async countUpcomingBooked(workspaceId: string, patientId: string, serviceId: string, now: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(sessions)
        .where(
          and(
            eq(sessions.workspaceId, workspaceId),
            eq(sessions.publicServiceId, serviceId),
            eq(sessions.patientId, patientId),
            ne(sessions.status, 'canceled'),
            gt(sessions.startsAt, now),
          ),
        );
      return row?.n ?? 0;
    },
    async insert(values: NewSession): Promise<SessionRow> {
      const [row] = await db.insert(sessions).values(values).returning();
      return row!;
    },
    async update(id: string, values: Partial<NewSession>): Promise<SessionRow> {
      const [row] = await db
        .update(sessions)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(sessions.id, id))
        .returning();
      return row!;
    },
    /** A session paid at booking whose money went back; undefined unless it was `paid`. */
    async markRefunded(workspaceId: string, id: string): Promise<SessionRow | undefined> {
      const [row] = await db
        .update(sessions)
        .set({ paymentStatus: 'refunded', updatedAt: new Date() })
        .where(and(eq(sessions.workspaceId, workspaceId), eq(sessions.id, id), eq(sessions.paymentStatus, 'paid')))
        .returning();
      return row;
    },
  };
}

export function locationsRepository(db: DbOrTx) {
  return {
    list: (workspaceId: string) =>
      db.select().from(locations).where(eq(locations.workspaceId, workspaceId)).orderBy(asc(locations.name), asc(locations.id)),
    async find(workspaceId: string, id: string) {
      const [row] = await db
        .select()
        .from(locations)
        .where(and(eq(locations.workspaceId, workspaceId), eq(locations.id, id)));
      return row;
    },
    async count(workspaceId: string) {
      return db.$count(locations, eq(locations.workspaceId, workspaceId));
    },
    async insert(values: typeof locations.$inferInsert) {
      const [row] = await db.insert(locations).values(values).returning();
      return row!;
    },
    async update(workspaceId: string, id: string, values: Partial<typeof locations.$inferInsert>) {
      const [row] = await db
        .update(locations)
        .set(values)
        .where(and(eq(locations.workspaceId, workspaceId), eq(locations.id, id)))
        .returning();
      return row;
    },
    async delete(workspaceId: string, id: string) {
      const rows = await db
        .delete(locations)
        .where(and(eq(locations.workspaceId, workspaceId), eq(locations.id, id)))
        .returning({ id: locations.id });
      return rows.length === 1;
    },
  };
}
