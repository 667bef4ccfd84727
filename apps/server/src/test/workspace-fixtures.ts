import { json, type TestApp } from './test-app';
import { signUpConfirmed } from './auth-flows';
import type { CreatePatientBody, Permission, Workspace } from '@divan/core';

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

/** A patient of the workspace, created by `owner`: its id. */
export async function createPatient(t: TestApp, owner: Therapist, workspaceId: string, body: CreatePatientBody) {
  const res = await t.post(`/api/v1/workspaces/${workspaceId}/patients`, body, { token: owner.accessToken });
  if (res.statusCode !== 201) throw new Error(`create patient: ${res.body}`);
  return json<{ id: string }>(res).id;
}

/** Someone to sign up: `therapist`'s arguments. */
export type Person = { email: string; firstName: string };
/** A member to add: one of the workspace's own roles by name, or a new role with these permissions. */
export type MemberSpec = Person & { role: string | { name: string; permissions: Permission[] } };
export type WorkspaceSetUp = {
  owner: Person;
  template?: 'freelance' | 'team' | 'clinic';
  /** Set before the members are added. */
  plan?: Parameters<TestApp['app']['services']['workspaces']['setPlan']>[1];
  members?: Record<string, MemberSpec>;
  /** A first patient, created by the owner. */
  patient?: CreatePatientBody;
};
type SetUpWorkspace<O extends WorkspaceSetUp> = {
  owner: Therapist;
  ws: Workspace;
  members: { [K in keyof O['members']]: Therapist };
} & (O extends { patient: CreatePatientBody } ? { patientId: string } : unknown);

/**
 * The usual start of a test file: the owner and the members signed up, in that order; the workspace
 * `name` (a clinic unless told) with its plan; each member added with its role; the first patient.
 */
export async function withWorkspace<O extends WorkspaceSetUp>(t: TestApp, name: string, options: O): Promise<SetUpWorkspace<O>> {
  const owner = await therapist(t, options.owner.email, options.owner.firstName);
  const specs = Object.entries(options.members ?? {});
  const members: Record<string, Therapist> = {};
  for (const [key, m] of specs) members[key] = await therapist(t, m.email, m.firstName);
  const ws = await createWorkspace(t, owner, name, options.template);
  if (options.plan) await t.app.services.workspaces.setPlan(ws.id, options.plan);
  for (const [key, { role }] of specs) {
    const roleId = typeof role === 'string' ? roleNamed(ws, role) : (await createRole(t, owner, ws.id, role.name, role.permissions)).id;
    await addMember(t, owner, ws.id, members[key]!, [roleId]);
  }
  const patientId = options.patient ? await createPatient(t, owner, ws.id, options.patient) : undefined;
  return { owner, ws, members, ...(patientId ? { patientId } : {}) } as SetUpWorkspace<O>;
}

function roleNamed(ws: Workspace, name: string) {
  const role = ws.roles.find((r) => r.name === name);
  if (!role) throw new Error(`no role ${name} in ${ws.name}`);
  return role.id;
}
