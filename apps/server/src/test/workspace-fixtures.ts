import { json, type TestApp } from './test-app';
import { signUpConfirmed } from './auth-flows';
import type { Permission, Workspace } from '@divan/core';

export type Therapist = { userId: string; accessToken: string; email: string };

export async function therapist(t: TestApp, email: string, firstName = 'Terapeuta'): Promise<Therapist> {
  const s = await signUpConfirmed(t, email, firstName);
  return { userId: s.userId, accessToken: s.accessToken, email };
}

export async function createWorkspace(t: TestApp, owner: Therapist, name: string, template: 'freelance' | 'team' | 'clinic' = 'clinic') {
  const res = await t.post('/api/v1/workspaces', { name, template }, { token: owner.accessToken });
  if (res.statusCode !== 201) throw new Error(`create workspace: ${res.body}`);
  return json<Workspace>(res);
}

export async function createRole(t: TestApp, owner: Therapist, workspaceId: string, name: string, permissions: Permission[]) {
  const res = await t.post(`/api/v1/workspaces/${workspaceId}/roles`, { name, permissions }, { token: owner.accessToken });
  if (res.statusCode !== 201) throw new Error(`create role: ${res.body}`);
  return json<{ id: string }>(res);
}

/** Invites by email and accepts as the invitee: a real member with these roles. */
export async function addMember(t: TestApp, owner: Therapist, workspaceId: string, member: Therapist, roleIds: string[]) {
  const inv = await t.post(`/api/v1/workspaces/${workspaceId}/invitations`, { email: member.email, roleIds }, { token: owner.accessToken });
  if (inv.statusCode !== 201) throw new Error(`invite: ${inv.body}`);
  const id = json<{ id: string }>(inv).id;
  const accepted = await t.post(`/api/v1/invitations/${id}/accept`, undefined, { token: member.accessToken });
  if (accepted.statusCode !== 200) throw new Error(`accept: ${accepted.body}`);
  const me = json<Workspace>(accepted).me;
  return { memberId: me.memberId, invitationId: id };
}

/** A role inserted directly, past the per-workspace limit: for the authorization matrix only. */
export async function insertRole(t: TestApp, workspaceId: string, name: string, permissions: Permission[]) {
  const { rolesRepository } = await import('../modules/workspaces/roles.repository');
  const row = await rolesRepository(t.app.services.database.db).insert({ workspaceId, name, permissions });
  return { id: row!.id };
}
