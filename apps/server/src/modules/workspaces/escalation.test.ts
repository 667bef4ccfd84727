import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member, Permission, Role, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { addMember, createRole, createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';

/**
 * No privilege escalation (issue 9): only an administrator grants the administrator role; nobody
 * grants a role, or creates or widens one, with permissions they do not hold; nobody changes their
 * own roles.
 */
let t: TestApp;
let owner: Therapist;
let manager: Therapist;
let tina: Therapist;
let ada: Therapist;
let ws: Workspace;
const ids = { admin: '', therapist: '', manager: '', agenda: '', tinaMember: '', managerMember: '', adaMember: '', ownerMember: '' };
const W = () => `/api/v1/workspaces/${ws.id}`;
type Res = { statusCode: number; json(): unknown };
const body = (res: Res) => res.json() as { code: string; message: string; fields?: { path: string; message: string }[] };
const expectRefused = (res: Res, message: string | RegExp) => {
  expect({ status: res.statusCode, code: body(res).code }).toEqual({ status: 403, code: 'access_denied' });
  expect(body(res).message).toMatch(message);
};

/** The team manager: manages members and roles, reads sessions and their own patients' files, nothing clinical. */
const MANAGER: Permission[] = [
  { action: 'manage', subject: 'members' },
  { action: 'manage', subject: 'roles' },
  { action: 'read', subject: 'sessions' },
  { action: 'read', subject: 'patient_files', ownOnly: true },
];

beforeAll(async () => {
  t = await createTestApp();
  owner = await therapist(t, 'olga@escalada.test', 'Olga');
  ws = await createWorkspace(t, owner, 'Clínica Escalera', 'clinic');
  await t.app.services.workspaces.setPlan(ws.id, { id: 'team', seats: 20 });
  ids.admin = ws.roles.find((r) => r.isAdmin)!.id;
  ids.therapist = ws.roles.find((r) => r.name === 'Terapeuta')!.id;
  ids.manager = (await createRole(t, owner, ws.id, 'Gestión de equipo', MANAGER)).id;
  ids.agenda = (await createRole(t, owner, ws.id, 'Agenda', [{ action: 'read', subject: 'sessions' }])).id;
  manager = await therapist(t, 'gestor@escalada.test', 'Gema');
  tina = await therapist(t, 'tina@escalada.test', 'Tina');
  ada = await therapist(t, 'ada@escalada.test', 'Ada');
  ids.managerMember = (await addMember(t, owner, ws.id, manager, [ids.manager])).memberId;
  ids.tinaMember = (await addMember(t, owner, ws.id, tina, [ids.therapist])).memberId;
  ids.adaMember = (await addMember(t, owner, ws.id, ada, [ids.admin])).memberId;
  ids.ownerMember = ws.me.memberId;
});
afterAll(() => t?.close());

const rolesOf = async (memberId: string) =>
  json<Member[]>(await t.get(`${W()}/members`, { token: owner.accessToken }))
    .find((m) => m.id === memberId)!
    .roles.map((r) => r.name)
    .sort();
const patchMember = (who: Therapist, memberId: string, roleIds: string[], extra: Record<string, unknown> = {}) =>
  t.patch(`${W()}/members/${memberId}`, { roleIds, ...extra }, { token: who.accessToken });

describe('granting roles to members', () => {
  it('a member who may update members cannot give themselves the administrator role, nor any other role', async () => {
    expectRefused(await patchMember(manager, ids.managerMember, [ids.manager, ids.admin]), 'No puedes cambiar tus propios roles');
    expectRefused(await patchMember(manager, ids.managerMember, [ids.admin]), 'No puedes cambiar tus propios roles');
    expectRefused(await patchMember(manager, ids.managerMember, [ids.manager, ids.agenda]), 'No puedes cambiar tus propios roles');
    expect(await rolesOf(ids.managerMember)).toEqual(['Gestión de equipo']);
    // Nor their own commission or payments receiver; the dialog's save with everything unchanged passes.
    expectRefused(
      await patchMember(manager, ids.managerMember, [ids.manager], { commission: { type: 'percentage', value: 1000 } }),
      'No puedes cambiar tu propia comisión',
    );
    expectRefused(
      await patchMember(manager, ids.managerMember, [ids.manager], { paymentsReceiver: 'workspace' }),
      'No puedes cambiar tu propia comisión',
    );
    expect(
      (await patchMember(owner, ids.managerMember, [ids.manager], { commission: { type: 'percentage', value: 1000 } })).statusCode,
    ).toBe(200);
    const same = await patchMember(manager, ids.managerMember, [ids.manager], {
      commission: { type: 'percentage', value: 1000 },
      paymentsReceiver: 'therapist',
    });
    expect(same.statusCode).toBe(200);
    // Another member's commission is theirs to set, within members:update.
    expect((await patchMember(manager, ids.tinaMember, [ids.therapist], { commission: { type: 'fixed', value: 2000 } })).statusCode).toBe(
      200,
    );
  });

  it('only an administrator grants the administrator role', async () => {
    const res = await patchMember(manager, ids.tinaMember, [ids.therapist, ids.admin]);
    expectRefused(res, 'Solo un administrador puede conceder el rol de administrador');
    expect(body(res).fields).toEqual([{ path: 'roleIds', message: body(res).message }]);
    expect(await rolesOf(ids.tinaMember)).toEqual(['Terapeuta']);
    // Nor take it from an administrator, or change an administrator's roles at all.
    expectRefused(
      await patchMember(manager, ids.adaMember, [ids.agenda]),
      'Solo un administrador puede cambiar los roles de un administrador',
    );
    expectRefused(
      await patchMember(manager, ids.adaMember, [ids.admin, ids.agenda]),
      'Solo un administrador puede cambiar los roles de un administrador',
    );
    expect(await rolesOf(ids.adaMember)).toEqual(['Administrador']);
    // Nor remove one.
    expectRefused(
      await t.del(`${W()}/members/${ids.adaMember}`, { token: manager.accessToken }),
      'Solo un administrador puede quitar a un administrador del espacio',
    );
    expect(await rolesOf(ids.adaMember)).toEqual(['Administrador']);
  });

  it('nobody grants a role holding permissions they do not hold; roles within their own permissions they may', async () => {
    const res = await patchMember(manager, ids.tinaMember, [ids.agenda]);
    expect(res.statusCode).toBe(200); // narrowing: Terapeuta taken away, Agenda (held) given
    const back = await patchMember(manager, ids.tinaMember, [ids.agenda, ids.therapist]);
    expectRefused(back, /^No puedes conceder permisos que tú no tienes: .*Todo · Historia clínica \(solo sus pacientes\)/);
    expect(body(back).message).not.toContain('Ver · Sesiones');
    expect(await rolesOf(ids.tinaMember)).toEqual(['Agenda']);
    // Editing the commission of someone whose roles are wider than the editor's, roles unchanged, is fine.
    expect((await patchMember(owner, ids.tinaMember, [ids.therapist])).statusCode).toBe(200);
    expect((await patchMember(manager, ids.tinaMember, [ids.therapist], { paymentsReceiver: 'workspace' })).statusCode).toBe(200);
  });

  it('an administrator grants the administrator role, but changes neither their own roles nor, as owner, drops it', async () => {
    expect((await patchMember(ada, ids.tinaMember, [ids.therapist, ids.admin])).statusCode).toBe(200);
    expect(await rolesOf(ids.tinaMember)).toEqual(['Administrador', 'Terapeuta']);
    expect((await patchMember(ada, ids.tinaMember, [ids.therapist])).statusCode).toBe(200);
    expectRefused(await patchMember(ada, ids.adaMember, [ids.admin, ids.therapist]), 'No puedes cambiar tus propios roles');
    expectRefused(await patchMember(owner, ids.ownerMember, [ids.admin, ids.therapist]), 'No puedes cambiar tus propios roles');
    const demoted = await patchMember(owner, ids.ownerMember, [ids.therapist]);
    expect({ status: demoted.statusCode, code: body(demoted).code }).toEqual({ status: 409, code: 'owner_must_be_admin' });
    expect(await rolesOf(ids.ownerMember)).toEqual(['Administrador']);
  });
});

describe('granting roles by invitation', () => {
  const invite = (who: Therapist, email: string, roleIds: string[]) =>
    t.post(`${W()}/invitations`, { email, roleIds }, { token: who.accessToken });

  it('the same rules hold when inviting', async () => {
    expectRefused(
      await invite(manager, 'nuevo1@escalada.test', [ids.admin]),
      'Solo un administrador puede conceder el rol de administrador',
    );
    expectRefused(
      await invite(manager, 'nuevo2@escalada.test', [ids.agenda, ids.therapist]),
      'No puedes conceder permisos que tú no tienes',
    );
    expect((await invite(manager, 'nuevo3@escalada.test', [ids.agenda])).statusCode).toBe(201);
    expect((await invite(manager, 'nuevo4@escalada.test', [ids.manager])).statusCode).toBe(201);
    expect((await invite(ada, 'nuevo5@escalada.test', [ids.admin])).statusCode).toBe(201);
    const pending = json<Member[]>(await t.get(`${W()}/members`, { token: owner.accessToken }))
      .filter((m) => m.kind === 'invitation')
      .map((m) => m.email);
    expect(pending.sort()).toEqual(['nuevo3@escalada.test', 'nuevo4@escalada.test', 'nuevo5@escalada.test']);
  });
});

describe('creating and changing roles', () => {
  const R = () => `${W()}/roles`;
  const create = (who: Therapist, name: string, permissions: Permission[]) =>
    t.post(R(), { name, permissions }, { token: who.accessToken });
  const update = (who: Therapist, id: string, name: string, permissions: Permission[]) =>
    t.put(`${R()}/${id}`, { name, permissions }, { token: who.accessToken });
  const roleNamed = async (name: string) => json<Role[]>(await t.get(R(), { token: owner.accessToken })).find((r) => r.name === name);

  it('creates roles only within the permissions the creator holds, "is owner" counted carefully', async () => {
    expect(
      (
        await create(manager, 'Ayudante', [
          { action: 'read', subject: 'sessions' },
          { action: 'update', subject: 'members' },
        ])
      ).statusCode,
    ).toBe(201);
    expect((await create(manager, 'Sus fichas', [{ action: 'read', subject: 'patient_files', ownOnly: true }])).statusCode).toBe(201);
    expectRefused(await create(manager, 'Todas las fichas', [{ action: 'read', subject: 'patient_files' }]), 'Ver · Fichas de pacientes.');
    expectRefused(
      await create(manager, 'Editar fichas', [{ action: 'manage', subject: 'patient_files', ownOnly: true }]),
      'Todo · Fichas de pacientes (solo sus pacientes)',
    );
    expectRefused(
      await create(manager, 'Historias', [{ action: 'read', subject: 'patient_histories', ownOnly: true }]),
      'Ver · Historia clínica (solo sus pacientes)',
    );
    const mixed = await create(manager, 'Mixto', [
      { action: 'read', subject: 'sessions' },
      { action: 'manage', subject: 'invoices' },
    ]);
    expectRefused(mixed, 'No puedes conceder permisos que tú no tienes: Todo · Facturas.');
    expect(body(mixed).fields).toEqual([{ path: 'permissions', message: body(mixed).message }]);
    for (const name of ['Todas las fichas', 'Editar fichas', 'Historias', 'Mixto']) expect(await roleNamed(name), name).toBeUndefined();
  });

  it('cannot widen a role, their own included, beyond what they hold', async () => {
    expectRefused(
      await update(manager, ids.manager, 'Gestión de equipo', [...MANAGER, { action: 'manage', subject: 'invoices' }]),
      'Todo · Facturas',
    );
    const own = MANAGER.map((p) => (p.subject === 'patient_files' ? { action: 'read' as const, subject: 'patient_files' as const } : p));
    expectRefused(await update(manager, ids.manager, 'Gestión de equipo', own), 'Ver · Fichas de pacientes.');
    expect((await roleNamed('Gestión de equipo'))!.permissions).toEqual(MANAGER);
    // Widening Agenda with what the manager holds is fine.
    expect(
      (
        await update(manager, ids.agenda, 'Agenda', [
          { action: 'read', subject: 'sessions' },
          { action: 'read', subject: 'members' },
        ])
      ).statusCode,
    ).toBe(200);
  });

  it('keeps what a role already had: renaming or narrowing a wider role is no grant, widening it is', async () => {
    const therapistRole = (await roleNamed('Terapeuta'))!;
    const renamed = await update(manager, ids.therapist, 'Terapeuta clínica', therapistRole.permissions);
    expect(renamed.statusCode, renamed.body).toBe(200);
    const narrower = therapistRole.permissions.filter((p) => p.subject !== 'invoices');
    expect((await update(manager, ids.therapist, 'Terapeuta clínica', narrower)).statusCode).toBe(200);
    expectRefused(
      await update(manager, ids.therapist, 'Terapeuta clínica', therapistRole.permissions),
      'Todo · Facturas (solo sus registros)',
    );
    const wider = narrower.map((p) =>
      p.subject === 'patient_histories' ? { action: 'manage' as const, subject: 'patient_histories' as const } : p,
    );
    expectRefused(await update(manager, ids.therapist, 'Terapeuta clínica', wider), 'Todo · Historia clínica.');
    // The owner, an administrator, holds everything.
    expect((await update(owner, ids.therapist, 'Terapeuta', therapistRole.permissions)).statusCode).toBe(200);
    expect((await create(owner, 'Facturación completa', [{ action: 'manage', subject: 'invoices' }])).statusCode).toBe(201);
  });
});
