import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Permission } from '@divan/core';
import type { DbOrTx } from '../../platform/db/database';
import { invitations, memberRoles, roles } from './workspaces.tables';

export type RoleRow = typeof roles.$inferSelect;

export function rolesRepository(db: DbOrTx) {
  return {
    async insert(values: {
      workspaceId: string;
      name: string;
      isAdmin?: boolean;
      permissions: Permission[];
    }): Promise<RoleRow | undefined> {
      const [row] = await db.insert(roles).values(values).onConflictDoNothing().returning();
      return row;
    },
    async list(workspaceId: string): Promise<RoleRow[]> {
      return db.select().from(roles).where(eq(roles.workspaceId, workspaceId)).orderBy(asc(roles.createdAt));
    },
    async find(workspaceId: string, id: string): Promise<RoleRow | undefined> {
      const [row] = await db
        .select()
        .from(roles)
        .where(and(eq(roles.workspaceId, workspaceId), eq(roles.id, id)));
      return row;
    },
    async findMany(workspaceId: string, ids: string[]): Promise<RoleRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(roles)
        .where(and(eq(roles.workspaceId, workspaceId), inArray(roles.id, ids)));
    },
    async adminRole(workspaceId: string): Promise<RoleRow | undefined> {
      const [row] = await db
        .select()
        .from(roles)
        .where(and(eq(roles.workspaceId, workspaceId), eq(roles.isAdmin, true)));
      return row;
    },
    async count(workspaceId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(roles).where(eq(roles.workspaceId, workspaceId));
      return row?.n ?? 0;
    },
    async nameTaken(workspaceId: string, name: string, exceptId?: string): Promise<boolean> {
      const rows = await db
        .select({ id: roles.id })
        .from(roles)
        .where(and(eq(roles.workspaceId, workspaceId), sql`lower(${roles.name}) = lower(${name})`));
      return rows.some((r) => r.id !== exceptId);
    },
    async update(id: string, values: { name: string; permissions: Permission[] }) {
      const [row] = await db.update(roles).set(values).where(eq(roles.id, id)).returning();
      return row;
    },
    async delete(id: string) {
      await db.delete(roles).where(eq(roles.id, id));
    },
    /** Members holding each role of the workspace. */
    async seatCounts(workspaceId: string): Promise<Map<string, number>> {
      const rows = await db
        .select({ roleId: memberRoles.roleId, n: count() })
        .from(memberRoles)
        .innerJoin(roles, eq(roles.id, memberRoles.roleId))
        .where(eq(roles.workspaceId, workspaceId))
        .groupBy(memberRoles.roleId);
      return new Map(rows.map((r) => [r.roleId, r.n]));
    },
    /** Whether a member or a pending invitation uses the role. */
    async inUse(workspaceId: string, roleId: string): Promise<boolean> {
      const [m] = await db.select({ n: count() }).from(memberRoles).where(eq(memberRoles.roleId, roleId));
      if ((m?.n ?? 0) > 0) return true;
      const [i] = await db
        .select({ n: count() })
        .from(invitations)
        .where(
          and(
            eq(invitations.workspaceId, workspaceId),
            eq(invitations.status, 'pending'),
            sql`${invitations.roleIds} @> ${JSON.stringify([roleId])}::jsonb`,
          ),
        );
      return (i?.n ?? 0) > 0;
    },
  };
}
