import { and, asc, count, countDistinct, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { invitations, memberRoles, members, roles } from './workspaces.tables';

export type MemberRow = typeof members.$inferSelect;
export type InvitationRow = typeof invitations.$inferSelect;
type Commission = { commissionType: 'fixed' | 'percentage' | null; commissionValue: number | null };

export function membersRepository(db: DbOrTx) {
  return {
    async insert(values: { workspaceId: string; userId: string; paymentsReceiver?: 'therapist' | 'workspace' } & Partial<Commission>) {
      const [row] = await db.insert(members).values(values).onConflictDoNothing().returning();
      return row;
    },
    async setRoles(member: Pick<MemberRow, 'id' | 'workspaceId'>, roleIds: string[]) {
      const { id: memberId, workspaceId } = member;
      await db.delete(memberRoles).where(and(eq(memberRoles.workspaceId, workspaceId), eq(memberRoles.memberId, memberId)));
      if (roleIds.length) await db.insert(memberRoles).values(roleIds.map((roleId) => ({ workspaceId, memberId, roleId })));
    },
    async find(workspaceId: string, id: string): Promise<MemberRow | undefined> {
      const [row] = await db
        .select()
        .from(members)
        .where(and(eq(members.workspaceId, workspaceId), eq(members.id, id)));
      return row;
    },
    async findByUser(workspaceId: string, userId: string): Promise<MemberRow | undefined> {
      const [row] = await db
        .select()
        .from(members)
        .where(and(eq(members.workspaceId, workspaceId), eq(members.userId, userId)));
      return row;
    },
    async update(id: string, values: Partial<Commission & { paymentsReceiver: 'therapist' | 'workspace' }>) {
      const [row] = await db.update(members).set(values).where(eq(members.id, id)).returning();
      return row;
    },
    async delete(id: string) {
      await db.delete(members).where(eq(members.id, id));
    },
    async list(workspaceId: string): Promise<MemberRow[]> {
      return db.select().from(members).where(eq(members.workspaceId, workspaceId)).orderBy(asc(members.createdAt));
    },
    async rolesOf(memberIds: string[]) {
      if (memberIds.length === 0) return [];
      return db
        .select({ memberId: memberRoles.memberId, id: roles.id, name: roles.name, isAdmin: roles.isAdmin })
        .from(memberRoles)
        .innerJoin(roles, eq(roles.id, memberRoles.roleId))
        .where(inArray(memberRoles.memberId, memberIds));
    },
    async count(workspaceId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(members).where(eq(members.workspaceId, workspaceId));
      return row?.n ?? 0;
    },
    /** Members holding at least one role (the users a plan is billed for). */
    async countWithRole(workspaceId: string): Promise<number> {
      const [row] = await db
        .select({ n: countDistinct(members.id) })
        .from(members)
        .innerJoin(memberRoles, eq(memberRoles.memberId, members.id))
        .where(eq(members.workspaceId, workspaceId));
      return row?.n ?? 0;
    },

    async insertInvitation(values: typeof invitations.$inferInsert): Promise<InvitationRow | undefined> {
      const [row] = await db.insert(invitations).values(values).onConflictDoNothing().returning();
      return row;
    },
    async findInvitation(id: string): Promise<InvitationRow | undefined> {
      const [row] = await db.select().from(invitations).where(eq(invitations.id, id));
      return row;
    },
    async pendingInvitations(workspaceId: string): Promise<InvitationRow[]> {
      return db
        .select()
        .from(invitations)
        .where(and(eq(invitations.workspaceId, workspaceId), eq(invitations.status, 'pending')))
        .orderBy(asc(invitations.createdAt));
    },
    async countPending(workspaceId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(invitations)
        .where(and(eq(invitations.workspaceId, workspaceId), eq(invitations.status, 'pending')));
      return row?.n ?? 0;
    },
    /** Moves a pending invitation on; undefined when it was no longer pending (a race lost). */
    async closeInvitation(id: string, status: 'accepted' | 'canceled') {
      const [row] = await db
        .update(invitations)
        .set({ status, ...(status === 'accepted' ? { acceptedAt: new Date() } : {}) })
        .where(and(eq(invitations.id, id), eq(invitations.status, 'pending')))
        .returning();
      return row;
    },
  };
}
