import { canOn, scopeFor, type Scope } from '@divan/core';
import type { Membership } from '../../platform/auth/access';
import type { Caller } from '../../platform/auth/caller';
import type { PatientsService } from '../patients/patients.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';

/**
 * Who of a workspace reads a patient's chat: it is clinical, so it follows the clinical history's
 * permission (`patient_histories`) on a patient the member sees. Reading (and marking read) needs
 * `read`, writing needs `create`. Recepción holds neither, so it reads no chat.
 */
export const CHAT_SUBJECT = 'patient_histories' as const;

/** The files whose chat a member reads, as a patient scope (the narrower of the files' and the histories'). */
export function chatScope(member: Membership, userId: string): Scope {
  const files = scopeFor(member.ability, 'read', 'patient_files', userId);
  const clinical = scopeFor(member.ability, 'read', CHAT_SUBJECT, userId);
  if (files.kind === 'none' || clinical.kind === 'none') return { kind: 'none' };
  if (files.kind === 'own' || clinical.kind === 'own') return { kind: 'own', ownerId: userId };
  return { kind: 'all' };
}

/** Whether a member may read a file assigned to `therapistId` (the fan-out's check, without a query per member). */
export function readsFile(member: Membership, userId: string, therapistId: string | null): boolean {
  const scope = chatScope(member, userId);
  if (scope.kind === 'none') return false;
  if (scope.kind === 'own' && therapistId !== userId) return false;
  return canOn(member.ability, 'read', CHAT_SUBJECT, { ownerId: therapistId });
}

export class ChatAccess {
  constructor(
    private readonly patients: PatientsService,
    private readonly workspaces: WorkspacesService,
  ) {}

  /** The patient file if the member may read (or write) its chat; 404 / 403 otherwise. */
  file = (c: Caller, patientFileId: string, action: 'read' | 'create' = 'read') =>
    this.patients.accessible(c, patientFileId, action, CHAT_SUBJECT);

  /** The user ids of the members who read the file's chat (recipients of its events). */
  async readers(workspaceId: string, patientFileId: string): Promise<string[]> {
    const [profile, userIds] = await Promise.all([
      this.patients.profilesOf(workspaceId, [patientFileId]),
      this.workspaces.memberUserIds(workspaceId),
    ]);
    const p = profile.get(patientFileId);
    if (!p) return [];
    const out: string[] = [];
    for (const userId of userIds) {
      const member = await this.workspaces.resolveMembership(workspaceId, userId);
      if (member && readsFile(member, userId, p.therapistId)) out.push(userId);
    }
    return out;
  }

  /** Every membership of a user with the chat scope it gives (for the counters at connection). */
  async scopesOf(userId: string): Promise<{ workspaceId: string; scope: Scope }[]> {
    const out: { workspaceId: string; scope: Scope }[] = [];
    for (const w of await this.workspaces.listForUser(userId)) {
      const member = await this.workspaces.resolveMembership(w.id, userId);
      const scope = member ? chatScope(member, userId) : ({ kind: 'none' } as const);
      if (scope.kind !== 'none') out.push({ workspaceId: w.id, scope });
    }
    return out;
  }

  /** The workspace of a file whose chat the user reads (a typing notice names the file only); null otherwise. */
  async workspaceOf(userId: string, patientFileId: string): Promise<string | null> {
    for (const w of await this.workspaces.listForUser(userId)) {
      const member = await this.workspaces.resolveMembership(w.id, userId);
      const p = member ? (await this.patients.profilesOf(w.id, [patientFileId])).get(patientFileId) : undefined;
      if (member && p && readsFile(member, userId, p.therapistId)) return w.id;
    }
    return null;
  }
}
