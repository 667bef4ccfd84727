import { grantRefusal, permissionsNotHeld, type Member, type Permission } from '@divan/core';
import type { Db, DbOrTx } from '../../platform/db/database';
import type { Membership } from '../../platform/auth/access';
import { AppError } from '../../platform/errors';
import type { Mailer } from '../../platform/mail/mailer';
import type { Realtime } from '../../platform/realtime/realtime';
import type { AuditService } from '../audit/audit.service';
import type { UsersService } from '../users/users.service';
import { membersRepository, type InvitationRow } from './members.repository';
import { rolesRepository } from './roles.repository';
import type { WorkspacesService } from './workspaces.service';
import { invitationMail } from './workspaces.mails';

type Commission = { type: 'fixed' | 'percentage'; value: number } | null | undefined;
type Receiver = 'therapist' | 'workspace';
const fileUrl = (id: string | null) => (id ? `/api/v1/files/${id}` : null);
const invitationMailKey = (invitationId: string) => `invitation:${invitationId}`;

/** Seats and invitations (spec §3/§4): invite by email, join, edit roles/commission/receiver, remove. */
export class MembersService {
  constructor(
    private readonly d: {
      db: Db;
      users: UsersService;
      audit: AuditService;
      mailer: Mailer;
      workspaces: WorkspacesService;
      realtime: Realtime;
      publicUrl: string;
    },
  ) {}

  async list(workspaceId: string): Promise<Member[]> {
    const repo = membersRepository(this.d.db);
    const [rows, pending, workspaceOwner] = await Promise.all([
      repo.list(workspaceId),
      repo.pendingInvitations(workspaceId),
      this.d.workspaces.ownerOf(workspaceId),
    ]);
    const roleRows = await repo.rolesOf(rows.map((r) => r.id));
    const allRoles = await rolesRepository(this.d.db).list(workspaceId);
    const users = new Map((await this.d.users.findManyByIds(rows.map((r) => r.userId))).map((u) => [u.id, u]));
    const out: Member[] = [];
    for (const m of rows) {
      const u = users.get(m.userId);
      out.push({
        id: m.id,
        kind: 'member',
        userId: m.userId,
        email: u?.email ?? '',
        firstName: u?.firstName ?? null,
        lastName: u?.lastName ?? null,
        pictureUrl: fileUrl(u?.pictureFileId ?? null),
        isOwner: m.userId === workspaceOwner,
        roles: roleRows.filter((r) => r.memberId === m.id).map((r) => ({ id: r.id, name: r.name })),
        commission: commissionOf(m),
        paymentsReceiver: m.paymentsReceiver,
        status: 'active',
        createdAt: m.createdAt.toISOString(),
      });
    }
    const mails = await this.d.mailer.statusOf(pending.map((i) => invitationMailKey(i.id)));
    for (const i of pending) {
      const mail = mails.get(invitationMailKey(i.id));
      out.push({
        id: i.id,
        kind: 'invitation',
        userId: null,
        email: i.email,
        firstName: null,
        lastName: null,
        pictureUrl: null,
        isOwner: false,
        roles: allRoles.filter((r) => i.roleIds.includes(r.id)).map((r) => ({ id: r.id, name: r.name })),
        commission: commissionOf(i),
        paymentsReceiver: i.paymentsReceiver,
        status: 'pending',
        mail: mail ? { status: mail.status, error: mail.error } : null,
        createdAt: i.createdAt.toISOString(),
      });
    }
    return out;
  }

  async invite(
    m: Membership,
    actorId: string,
    input: { email: string; roleIds: string[]; commission?: Commission; paymentsReceiver?: Receiver },
  ) {
    const invitation = await this.d.db.transaction(async (tx) => {
      await this.d.workspaces.assertSeatAvailable(tx, m.workspaceId);
      assertMayGrant(m, await this.checkRoles(tx, m.workspaceId, input.roleIds));
      const existing = await this.d.users.findByEmail(input.email, tx);
      if (existing && (await membersRepository(tx).findByUser(m.workspaceId, existing.id))) throw new AppError('member_already_exists');
      const row = await membersRepository(tx).insertInvitation({
        workspaceId: m.workspaceId,
        email: input.email,
        roleIds: input.roleIds,
        commissionType: input.commission?.type ?? null,
        commissionValue: input.commission?.value ?? null,
        paymentsReceiver: input.paymentsReceiver ?? 'therapist',
        invitedBy: actorId,
      });
      // The partial unique index refuses a second pending invitation: resending while pending is refused.
      if (!row) throw new AppError('invitation_already_sent');
      await this.d.audit.record(tx, {
        workspaceId: m.workspaceId,
        actorId,
        action: 'member.invited',
        target: input.email,
        details: { roleIds: input.roleIds },
      });
      // The mail is part of the invitation: written in its transaction, relayed by a job, its status shown in the list.
      const [inviter, brand] = await Promise.all([this.d.users.findById(actorId, tx), this.d.workspaces.brandOf(m.workspaceId, tx)]);
      const logoUrl = brand.logoPath ? `${this.d.publicUrl}${brand.logoPath}` : null;
      const mail = invitationMail(
        row.email,
        inviter?.firstName ?? 'Diván',
        { name: brand.name, logoUrl },
        `${this.d.publicUrl}/workspaces/join/${row.id}`,
      );
      await this.d.mailer.send(mail, { tx, key: invitationMailKey(row.id), purpose: 'invitation', workspaceId: m.workspaceId });
      return row;
    });
    return invitation;
  }

  async cancelInvitation(m: Membership, actorId: string, invitationId: string) {
    await this.d.db.transaction(async (tx) => {
      const inv = await membersRepository(tx).findInvitation(invitationId);
      if (!inv || inv.workspaceId !== m.workspaceId || inv.status === 'canceled') throw new AppError('invitation_not_found');
      if (inv.status === 'accepted') throw new AppError('invitation_already_accepted');
      if (!(await membersRepository(tx).closeInvitation(inv.id, 'canceled'))) throw new AppError('invitation_not_found');
      await this.d.audit.record(tx, { workspaceId: m.workspaceId, actorId, action: 'invitation.canceled', target: inv.email });
    });
  }

  /** What the join screen shows; anyone signed in with the link may see whom it invites. */
  async getInvitation(invitationId: string) {
    const inv = await membersRepository(this.d.db).findInvitation(invitationId);
    if (!inv || inv.status === 'canceled') throw new AppError('invitation_not_found');
    const inviter = await this.d.users.findById(inv.invitedBy);
    return {
      id: inv.id,
      workspaceId: inv.workspaceId,
      workspaceName: (await this.d.workspaces.nameOf(inv.workspaceId)) ?? '',
      email: inv.email,
      invitedBy: inviter ? [inviter.firstName, inviter.lastName].filter(Boolean).join(' ') : '',
      status: inv.status,
    };
  }

  async accept(userId: string, invitationId: string) {
    const user = await this.d.users.findById(userId);
    const workspaceId = await this.d.db.transaction(async (tx) => {
      const inv = await membersRepository(tx).findInvitation(invitationId);
      if (!inv || inv.status === 'canceled') throw new AppError('invitation_not_found');
      if (inv.status === 'accepted') throw new AppError('invitation_already_accepted');
      if (!user || user.email !== inv.email) throw new AppError('invitation_email_mismatch');
      if (!(await membersRepository(tx).closeInvitation(inv.id, 'accepted'))) throw new AppError('invitation_already_accepted');
      const existingRoles = await rolesRepository(tx).findMany(inv.workspaceId, inv.roleIds);
      if (existingRoles.length === 0) throw new AppError('seat_needs_role');
      const member = await membersRepository(tx).insert({
        workspaceId: inv.workspaceId,
        userId,
        commissionType: inv.commissionType,
        commissionValue: inv.commissionValue,
        paymentsReceiver: inv.paymentsReceiver,
      });
      if (!member) throw new AppError('member_already_exists');
      await membersRepository(tx).setRoles(
        member,
        existingRoles.map((r) => r.id),
      );
      await this.d.audit.record(tx, { workspaceId: inv.workspaceId, actorId: userId, action: 'member.joined', target: inv.email });
      return inv.workspaceId;
    });
    await this.d.workspaces.accessChanged(workspaceId);
    return this.d.workspaces.get(workspaceId, userId);
  }

  async update(
    m: Membership,
    actorId: string,
    memberId: string,
    input: { roleIds?: string[]; commission?: Commission; paymentsReceiver?: Receiver },
  ) {
    const memberUserId = await this.d.db.transaction(async (tx) => {
      const repo = membersRepository(tx);
      const member = await repo.find(m.workspaceId, memberId);
      if (!member) throw new AppError('seat_not_found');
      if (input.roleIds) {
        const roles = await this.checkRoles(tx, m.workspaceId, input.roleIds);
        const ownerId = await this.d.workspaces.ownerOf(m.workspaceId, tx);
        if (member.userId === ownerId && !roles.some((r) => r.isAdmin)) throw new AppError('owner_must_be_admin');
        const current = await repo.rolesOf([member.id]);
        const added = roles.filter((r) => !current.some((c) => c.id === r.id));
        // The edit dialog sends the roles with every change: the same roles again is no role change.
        if (added.length > 0 || current.length !== roles.length) {
          if (member.id === m.memberId) throw denied(grantRefusal.ownRoles);
          if (!m.isAdmin && current.some((c) => c.isAdmin)) throw denied(grantRefusal.adminMember);
          assertMayGrant(m, added);
          await repo.setRoles(member, input.roleIds);
        }
      }
      // Money is not self-served either: a member who is not an administrator changes neither their own
      // commission nor who receives their payments (the dialog sends both with every save: same is no change).
      const was = commissionOf(member);
      const commissionChanges =
        input.commission !== undefined && (was?.type !== input.commission?.type || was?.value !== input.commission?.value);
      const receiverChanges = !!input.paymentsReceiver && input.paymentsReceiver !== member.paymentsReceiver;
      if ((commissionChanges || receiverChanges) && member.id === m.memberId && !m.isAdmin) throw denied(grantRefusal.ownTerms);
      if (input.commission !== undefined || input.paymentsReceiver)
        await repo.update(member.id, {
          ...(input.commission !== undefined
            ? { commissionType: input.commission?.type ?? null, commissionValue: input.commission?.value ?? null }
            : {}),
          ...(input.paymentsReceiver ? { paymentsReceiver: input.paymentsReceiver } : {}),
        });
      await this.d.audit.record(tx, {
        workspaceId: m.workspaceId,
        actorId,
        action: 'member.updated',
        target: member.userId,
        details: { ...input },
      });
      return member.userId;
    });
    await this.d.workspaces.accessChanged(m.workspaceId);
    await this.d.realtime.toUser(memberUserId, 'workspace-updated', { workspaceId: m.workspaceId });
    return (await this.list(m.workspaceId)).find((x) => x.id === memberId)!;
  }

  async remove(m: Membership, actorId: string, memberId: string) {
    const removedUserId = await this.d.db.transaction(async (tx) => {
      const member = await membersRepository(tx).find(m.workspaceId, memberId);
      if (!member) throw new AppError('seat_not_found');
      if (member.userId === (await this.d.workspaces.ownerOf(m.workspaceId, tx))) throw new AppError('owner_cannot_be_removed');
      if (!m.isAdmin && (await membersRepository(tx).rolesOf([member.id])).some((r) => r.isAdmin))
        throw new AppError('access_denied', undefined, grantRefusal.removeAdmin);
      await membersRepository(tx).delete(member.id);
      await this.d.audit.record(tx, { workspaceId: m.workspaceId, actorId, action: 'member.removed', target: member.userId });
      return member.userId;
    });
    await this.d.workspaces.accessChanged(m.workspaceId);
    await this.d.realtime.toUser(removedUserId, 'workspace-updated', { workspaceId: m.workspaceId });
  }

  /** At least one role, no repeats, all of this workspace. */
  private async checkRoles(tx: DbOrTx, workspaceId: string, roleIds: string[]) {
    if (roleIds.length === 0) throw new AppError('seat_needs_role');
    if (new Set(roleIds).size !== roleIds.length) throw new AppError('duplicated_roles');
    const roles = await rolesRepository(tx).findMany(workspaceId, roleIds);
    if (roles.length !== roleIds.length) throw new AppError('role_not_found');
    return roles;
  }
}

const denied = (message: string) => new AppError('access_denied', [{ path: 'roleIds', message }], message);

/** Only an administrator grants the administrator role; nobody grants a role with permissions they do not hold. */
function assertMayGrant(m: Membership, roles: { isAdmin: boolean; permissions: Permission[] }[]) {
  if (m.isAdmin) return;
  if (roles.some((r) => r.isAdmin)) throw denied(grantRefusal.adminRole);
  const missing = permissionsNotHeld(
    m.ability,
    roles.flatMap((r) => r.permissions),
  );
  if (missing.length) throw denied(grantRefusal.notHeld(dedupe(missing)));
}

const dedupe = (perms: Permission[]) => [...new Map(perms.map((p) => [`${p.action}:${p.subject}:${p.ownOnly === true}`, p])).values()];

function commissionOf(row: { commissionType: 'fixed' | 'percentage' | null; commissionValue: number | null }) {
  return row.commissionType && row.commissionValue !== null ? { type: row.commissionType, value: row.commissionValue } : null;
}
export type { InvitationRow };
