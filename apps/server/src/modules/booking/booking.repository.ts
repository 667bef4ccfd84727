import { and, asc, count, eq, gte, inArray, lte, type SQL } from 'drizzle-orm';
import type { Scope } from '@divan/core';
import type { DbOrTx } from '../../platform/db/database';
import { availabilityOverrides, bookingServices, type AvailabilityOverrideRow, type BookingServiceRow } from './booking.tables';

export type NewBookingService = typeof bookingServices.$inferInsert;
export type NewOverride = typeof availabilityOverrides.$inferInsert;

/** "is owner" as a WHERE on the therapist, never a post-filter. */
const owned = (column: typeof bookingServices.therapistId | typeof availabilityOverrides.therapistId, scope: Scope): SQL | undefined =>
  scope.kind === 'all' ? undefined : scope.kind === 'own' ? eq(column, scope.ownerId) : inArray(column, []);

/** Every read and write names the workspace: a service or a blocked day is reached only in its own. */
export function bookingRepository(db: DbOrTx) {
  return {
    services(workspaceId: string, scope: Scope, therapistId?: string): Promise<BookingServiceRow[]> {
      return db
        .select()
        .from(bookingServices)
        .where(
          and(
            eq(bookingServices.workspaceId, workspaceId),
            owned(bookingServices.therapistId, scope),
            therapistId ? eq(bookingServices.therapistId, therapistId) : undefined,
          ),
        )
        .orderBy(asc(bookingServices.title), asc(bookingServices.id));
    },
    /** The workspace's active services (one therapist's, when given), by title: what the public pages offer. */
    activeServices(workspaceId: string, therapistId?: string): Promise<BookingServiceRow[]> {
      return db
        .select()
        .from(bookingServices)
        .where(
          and(
            eq(bookingServices.workspaceId, workspaceId),
            eq(bookingServices.status, 'active'),
            therapistId ? eq(bookingServices.therapistId, therapistId) : undefined,
          ),
        )
        .orderBy(asc(bookingServices.title), asc(bookingServices.id));
    },
    async service(workspaceId: string, id: string): Promise<BookingServiceRow | undefined> {
      const [row] = await db
        .select()
        .from(bookingServices)
        .where(and(eq(bookingServices.workspaceId, workspaceId), eq(bookingServices.id, id)));
      return row;
    },
    async countServices(workspaceId: string, therapistId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(bookingServices)
        .where(and(eq(bookingServices.workspaceId, workspaceId), eq(bookingServices.therapistId, therapistId)));
      return row?.n ?? 0;
    },
    async insertService(values: NewBookingService): Promise<BookingServiceRow> {
      const [row] = await db.insert(bookingServices).values(values).returning();
      return row!;
    },
    async updateService(workspaceId: string, id: string, values: Partial<NewBookingService>): Promise<BookingServiceRow | undefined> {
      const [row] = await db
        .update(bookingServices)
        .set({ ...values, updatedAt: new Date() })
        .where(and(eq(bookingServices.workspaceId, workspaceId), eq(bookingServices.id, id)))
        .returning();
      return row;
    },
    async deleteService(workspaceId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(bookingServices)
        .where(and(eq(bookingServices.workspaceId, workspaceId), eq(bookingServices.id, id)))
        .returning({ id: bookingServices.id });
      return rows.length === 1;
    },

    /** Blocked days from `fromDay` on, by day. */
    overrides(workspaceId: string, scope: Scope, fromDay: string, therapistId?: string): Promise<AvailabilityOverrideRow[]> {
      return db
        .select()
        .from(availabilityOverrides)
        .where(
          and(
            eq(availabilityOverrides.workspaceId, workspaceId),
            owned(availabilityOverrides.therapistId, scope),
            therapistId ? eq(availabilityOverrides.therapistId, therapistId) : undefined,
            gte(availabilityOverrides.day, fromDay),
          ),
        )
        .orderBy(asc(availabilityOverrides.day));
    },
    /** Blocked days from `fromDay` to `toDay` (both included) of the workspace (one therapist's, when given). */
    blockedBetween(workspaceId: string, fromDay: string, toDay: string, therapistId?: string) {
      return db
        .select({
          therapistId: availabilityOverrides.therapistId,
          day: availabilityOverrides.day,
          allDay: availabilityOverrides.allDay,
          from: availabilityOverrides.fromTime,
          to: availabilityOverrides.toTime,
        })
        .from(availabilityOverrides)
        .where(
          and(
            eq(availabilityOverrides.workspaceId, workspaceId),
            therapistId ? eq(availabilityOverrides.therapistId, therapistId) : undefined,
            gte(availabilityOverrides.day, fromDay),
            lte(availabilityOverrides.day, toDay),
          ),
        );
    },
    async override(workspaceId: string, id: string): Promise<AvailabilityOverrideRow | undefined> {
      const [row] = await db
        .select()
        .from(availabilityOverrides)
        .where(and(eq(availabilityOverrides.workspaceId, workspaceId), eq(availabilityOverrides.id, id)));
      return row;
    },
    async countFutureOverrides(workspaceId: string, therapistId: string, fromDay: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(availabilityOverrides)
        .where(
          and(
            eq(availabilityOverrides.workspaceId, workspaceId),
            eq(availabilityOverrides.therapistId, therapistId),
            gte(availabilityOverrides.day, fromDay),
          ),
        );
      return row?.n ?? 0;
    },
    /** The days among `days` the therapist has blocked already. */
    async blockedDays(workspaceId: string, therapistId: string, days: string[]): Promise<string[]> {
      if (!days.length) return [];
      const rows = await db
        .select({ day: availabilityOverrides.day })
        .from(availabilityOverrides)
        .where(
          and(
            eq(availabilityOverrides.workspaceId, workspaceId),
            eq(availabilityOverrides.therapistId, therapistId),
            inArray(availabilityOverrides.day, days),
          ),
        );
      return rows.map((r) => r.day);
    },
    insertOverrides(values: NewOverride[]): Promise<AvailabilityOverrideRow[]> {
      return db.insert(availabilityOverrides).values(values).returning();
    },
    async updateOverride(workspaceId: string, id: string, values: Partial<NewOverride>): Promise<AvailabilityOverrideRow | undefined> {
      const [row] = await db
        .update(availabilityOverrides)
        .set(values)
        .where(and(eq(availabilityOverrides.workspaceId, workspaceId), eq(availabilityOverrides.id, id)))
        .returning();
      return row;
    },
    async deleteOverride(workspaceId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(availabilityOverrides)
        .where(and(eq(availabilityOverrides.workspaceId, workspaceId), eq(availabilityOverrides.id, id)))
        .returning({ id: availabilityOverrides.id });
      return rows.length === 1;
    },
  };
}
