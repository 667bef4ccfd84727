import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Permission } from '@divan/core';
import type { DbOrTx } from '../../platform/db/database';
import { memberRoles, members, roles, workspaces } from './workspaces.tables';

export type WorkspaceRow = typeof workspaces.$inferSelect;
export type NewWorkspace = typeof workspaces.$inferInsert;
export type MembershipRow = { memberId: string; ownerId: string; roles: { isAdmin: boolean; permissions: Permission[] }[] };

export function workspacesRepository(db: DbOrTx) {
  return {
    async insert(values: NewWorkspace): Promise<WorkspaceRow | undefined> {
      const [row] = await db.insert(workspaces).values(values).onConflictDoNothing().returning();
      return row;
    },
    async findById(id: string): Promise<WorkspaceRow | undefined> {
      const [row] = await db.select().from(workspaces).where(eq(workspaces.id, id));
      return row;
    },
    async lock(id: string) {
      const [row] = await db.select().from(workspaces).where(eq(workspaces.id, id)).for('update');
      return row;
    },
    async update(id: string, values: Partial<NewWorkspace>) {
      const [row] = await db.update(workspaces).set(values).where(eq(workspaces.id, id)).returning();
      return row;
    },
    async ownedBy(userId: string): Promise<string[]> {
      const rows = await db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.ownerId, userId));
      return rows.map((r) => r.id);
    },
    async countOwnedBy(userId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(workspaces).where(eq(workspaces.ownerId, userId));
      return row?.n ?? 0;
    },
    async nameTaken(ownerId: string, name: string, exceptId?: string): Promise<boolean> {
      const rows = await db
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(and(eq(workspaces.ownerId, ownerId), sql`lower(${workspaces.name}) = lower(${name})`));
      return rows.some((r) => r.id !== exceptId);
    },
    /** Workspaces the user belongs to, with their member id. */
    async listForUser(userId: string) {
      return db
        .select({ workspace: workspaces, memberId: members.id })
        .from(members)
        .innerJoin(workspaces, eq(workspaces.id, members.workspaceId))
        .where(eq(members.userId, userId))
        .orderBy(asc(workspaces.createdAt));
    },
    /** One query per request: the member, the owner and the member's roles. */
    async membership(workspaceId: string, userId: string): Promise<MembershipRow | null> {
      const rows = await db
        .select({ memberId: members.id, ownerId: workspaces.ownerId, isAdmin: roles.isAdmin, permissions: roles.permissions })
        .from(members)
        .innerJoin(workspaces, eq(workspaces.id, members.workspaceId))
        .leftJoin(memberRoles, eq(memberRoles.memberId, members.id))
        .leftJoin(roles, eq(roles.id, memberRoles.roleId))
        .where(and(eq(members.workspaceId, workspaceId), eq(members.userId, userId)));
      if (rows.length === 0) return null;
      return {
        memberId: rows[0]!.memberId,
        ownerId: rows[0]!.ownerId,
        roles: rows.filter((r) => r.permissions !== null).map((r) => ({ isAdmin: !!r.isAdmin, permissions: r.permissions! })),
      };
    },
  };
}
