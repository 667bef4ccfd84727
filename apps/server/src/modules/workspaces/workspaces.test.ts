import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member, Role, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { sql } from 'drizzle-orm';
import { signIn, signUpConfirmed } from '../../test/auth-flows';
import { addMember, createRole, createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { multipart, png } from '../../test/images';
import { connectSocket } from '../../test/ws-client';

let t: TestApp;
let owner: Therapist;
let ws: Workspace;
const W = () => `/api/v1/workspaces/${ws.id}`;
const codeOf = (res: { json(): unknown }) => (res.json() as { code: string }).code;
const expectError = (res: { statusCode: number; json(): unknown }, status: number, code: string) =>
  expect({ status: res.statusCode, code: codeOf(res) }).toEqual({ status, code });

beforeAll(async () => {
  t = await createTestApp();
  owner = await therapist(t, 'carmen@clinica.test', 'Carmen');
  ws = await createWorkspace(t, owner, 'Clínica Retiro', 'clinic');
});
afterAll(() => t?.close());

describe('workspaces', () => {
  it('gives every new therapist their own workspace, with a free trial', async () => {
    const s = await signUpConfirmed(t, 'nuevo@example.com', 'Nuevo');
    const list = json<Workspace[]>(await t.get('/api/v1/workspaces', { token: s.accessToken }));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ name: 'Consulta de Nuevo', template: 'freelance', isOwner: true, rolesManager: 'user' });
    expect(list[0]!.plan).toMatchObject({ id: null, promptUpgrade: true });
    expect(Date.parse(list[0]!.plan.freeTrialEnd!) - Date.now()).toBeGreaterThan(13 * 86_400_000);
    expect(list[0]!.features).toMatchObject({ canCreateInvoiceBatch: true, activePatientLimit: null });
    expect(list[0]!.me.isAdmin).toBe(true);
  });

  it('creates a clinic with its default roles and refuses a repeated name', async () => {
    expect(ws.roles.map((r) => r.name)).toEqual(['Administrador', 'Terapeuta', 'Recepción']);
    expect(ws.owner).toMatchObject({ firstName: 'Carmen' });
    const dup = await t.post('/api/v1/workspaces', { name: 'clínica retiro', template: 'team' }, { token: owner.accessToken });
    expectError(dup, 409, 'workspace_already_exists');
    const bad = await t.post('/api/v1/workspaces', { name: '', template: 'castle' }, { token: owner.accessToken });
    expectError(bad, 400, 'invalid_argument');
    expect(json<{ fields: { path: string; message: string }[] }>(bad).fields).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'El campo nombre es obligatorio' },
        { path: 'template', message: 'Opción inválida' },
      ]),
    );
  });

  it('limits the workspaces one therapist owns', async () => {
    const u = await therapist(t, 'muchos@example.com', 'Muchos');
    for (let i = 2; i <= 5; i++) await createWorkspace(t, u, `Espacio ${i}`, 'freelance');
    expectError(
      await t.post('/api/v1/workspaces', { name: 'Sexto', template: 'team' }, { token: u.accessToken }),
      409,
      'workspace_limit_reached',
    );
  });

  it('renames, sets a square logo and billing info', async () => {
    expect(json(await t.patch(W(), { name: 'Clínica del Retiro' }, { token: owner.accessToken })).name).toBe('Clínica del Retiro');
    const { payload, headers } = multipart('file', 'logo.png', 'image/png', png(32, 32));
    const logo = await t.app.inject({
      method: 'PUT',
      url: `${W()}/logo`,
      payload,
      headers: { ...headers, authorization: `Bearer ${owner.accessToken}` },
    });
    expect(json(logo).logoUrl).toMatch(/^\/api\/v1\/files\//);
    const info = {
      fullName: 'Clínica del Retiro SL',
      taxId: 'b12345674',
      line1: 'Calle Alcalá 1',
      city: 'Madrid',
      zipCode: '28009',
      country: 'España',
      footer: 'Inscrita en el Registro Mercantil',
    };
    const saved = json(await t.put(`${W()}/billing-info`, info, { token: owner.accessToken }));
    expect(saved).toMatchObject({ ...info, taxId: 'B12345674', line2: null });
    expectError(await t.put(`${W()}/billing-info`, { zipCode: '!!' }, { token: owner.accessToken }), 400, 'invalid_argument');
    // A CIF whose control character is wrong is refused, in Spanish.
    const bad = await t.put(`${W()}/billing-info`, { ...info, taxId: 'B12345678' }, { token: owner.accessToken });
    expect([bad.statusCode, bad.body]).toEqual([400, expect.stringContaining('carácter de control')]);
  });

  it('answers workspace_not_found for an unknown or malformed workspace', async () => {
    expectError(await t.get(`/api/v1/workspaces/${crypto.randomUUID()}`, { token: owner.accessToken }), 404, 'workspace_not_found');
    expectError(await t.get('/api/v1/workspaces/not-a-uuid', { token: owner.accessToken }), 404, 'workspace_not_found');
  });
});

describe('members and invitations', () => {
  let lucas: Therapist;
  let therapistRole: string;
  let adminRole: string;
  beforeAll(async () => {
    lucas = await therapist(t, 'lucas@example.com', 'Lucas');
    therapistRole = ws.roles.find((r) => r.name === 'Terapeuta')!.id;
    adminRole = ws.roles.find((r) => r.name === 'Administrador')!.id;
  });

  it('invites by email with a link, and refuses a second invitation while pending', async () => {
    const res = await t.post(
      `${W()}/invitations`,
      {
        email: 'Lucas@Example.com',
        roleIds: [therapistRole],
        commission: { type: 'percentage', value: 4000 },
        paymentsReceiver: 'workspace',
      },
      { token: owner.accessToken },
    );
    expect(res.statusCode).toBe(201);
    const mail = await t.lastMail('lucas@example.com');
    expect(mail.subject).toBe('Carmen te invita a Clínica del Retiro en Diván');
    expect(mail.text).toContain(`/workspaces/join/${json(res).id}`);
    expectError(
      await t.post(`${W()}/invitations`, { email: 'lucas@example.com', roleIds: [therapistRole] }, { token: owner.accessToken }),
      409,
      'invitation_already_sent',
    );
    const list = json<Member[]>(await t.get(`${W()}/members`, { token: owner.accessToken }));
    expect(list.find((m) => m.email === 'lucas@example.com')).toMatchObject({
      status: 'pending',
      kind: 'invitation',
      commission: { type: 'percentage', value: 4000 },
    });
  });

  it('refuses unknown, repeated and missing roles on an invitation', async () => {
    const post = (roleIds: string[]) => t.post(`${W()}/invitations`, { email: 'otro@example.com', roleIds }, { token: owner.accessToken });
    expectError(await post([crypto.randomUUID()]), 404, 'role_not_found');
    expectError(await post([therapistRole, therapistRole]), 400, 'duplicated_roles');
    expectError(await post([]), 400, 'invalid_argument');
  });

  it('the join screen refuses another email, accepts the invited one, once', async () => {
    const invitation = json<Member[]>(await t.get(`${W()}/members`, { token: owner.accessToken })).find(
      (m) => m.email === 'lucas@example.com',
    )!;
    const stranger = await therapist(t, 'extrano@example.com', 'Extraño');
    const seen = json(await t.get(`/api/v1/invitations/${invitation.id}`, { token: stranger.accessToken }));
    expect(seen).toMatchObject({ workspaceName: 'Clínica del Retiro', email: 'lucas@example.com', invitedBy: 'Carmen', status: 'pending' });
    expectError(
      await t.post(`/api/v1/invitations/${invitation.id}/accept`, undefined, { token: stranger.accessToken }),
      403,
      'invitation_email_mismatch',
    );
    const joined = await t.post(`/api/v1/invitations/${invitation.id}/accept`, undefined, { token: lucas.accessToken });
    expect(json<Workspace>(joined)).toMatchObject({ id: ws.id, isOwner: false });
    expectError(
      await t.post(`/api/v1/invitations/${invitation.id}/accept`, undefined, { token: lucas.accessToken }),
      409,
      'invitation_already_accepted',
    );
    expectError(await t.del(`${W()}/invitations/${invitation.id}`, { token: owner.accessToken }), 409, 'invitation_already_accepted');
    expectError(
      await t.post(`${W()}/invitations`, { email: 'lucas@example.com', roleIds: [therapistRole] }, { token: owner.accessToken }),
      409,
      'member_already_exists',
    );
  });

  it('cancels a pending invitation, after which it is not found', async () => {
    const id = json<{ id: string }>(
      await t.post(`${W()}/invitations`, { email: 'cancel@example.com', roleIds: [therapistRole] }, { token: owner.accessToken }),
    ).id;
    expect((await t.del(`${W()}/invitations/${id}`, { token: owner.accessToken })).statusCode).toBe(204);
    expectError(await t.del(`${W()}/invitations/${id}`, { token: owner.accessToken }), 404, 'invitation_not_found');
    const u = await therapist(t, 'cancel@example.com', 'Cancelada');
    expectError(await t.post(`/api/v1/invitations/${id}/accept`, undefined, { token: u.accessToken }), 404, 'invitation_not_found');
    expectError(await t.get(`/api/v1/invitations/${crypto.randomUUID()}`, { token: u.accessToken }), 404, 'invitation_not_found');
  });

  it("edits a member's roles, commission and receiver; the owner keeps the administrator role", async () => {
    const members = json<Member[]>(await t.get(`${W()}/members`, { token: owner.accessToken }));
    const l = members.find((m) => m.email === 'lucas@example.com')!;
    const me = members.find((m) => m.isOwner)!;
    const edited = json<Member>(
      await t.patch(
        `${W()}/members/${l.id}`,
        { roleIds: [therapistRole, adminRole], commission: { type: 'fixed', value: 1500 }, paymentsReceiver: 'therapist' },
        { token: owner.accessToken },
      ),
    );
    expect(edited).toMatchObject({ commission: { type: 'fixed', value: 1500 }, paymentsReceiver: 'therapist' });
    expect(edited.roles.map((r) => r.name).sort()).toEqual(['Administrador', 'Terapeuta']);
    expectError(await t.patch(`${W()}/members/${l.id}`, { roleIds: [] }, { token: owner.accessToken }), 400, 'seat_needs_role');
    expectError(
      await t.patch(`${W()}/members/${l.id}`, { roleIds: [adminRole, adminRole] }, { token: owner.accessToken }),
      400,
      'duplicated_roles',
    );
    expectError(
      await t.patch(`${W()}/members/${me.id}`, { roleIds: [therapistRole] }, { token: owner.accessToken }),
      409,
      'owner_must_be_admin',
    );
    expectError(
      await t.patch(`${W()}/members/${crypto.randomUUID()}`, { roleIds: [therapistRole] }, { token: owner.accessToken }),
      404,
      'seat_not_found',
    );
    expectError(
      await t.patch(`${W()}/members/${l.id}`, { commission: { type: 'percentage', value: 20_000 } }, { token: owner.accessToken }),
      400,
      'invalid_argument',
    );
    expectError(await t.del(`${W()}/members/${me.id}`, { token: owner.accessToken }), 409, 'owner_cannot_be_removed');
  });

  it('removes a member, who then gets 404 on the workspace', async () => {
    const m = await therapist(t, 'sale@example.com', 'Sale');
    const { memberId } = await addMember(t, owner, ws.id, m, [therapistRole]);
    expect((await t.get(W(), { token: m.accessToken })).statusCode).toBe(200);
    expect((await t.del(`${W()}/members/${memberId}`, { token: owner.accessToken })).statusCode).toBe(204);
    expectError(await t.get(W(), { token: m.accessToken }), 404, 'workspace_not_found');
    expectError(await t.del(`${W()}/members/${memberId}`, { token: owner.accessToken }), 404, 'seat_not_found');
  });

  it('tells a member at once, over the websocket, when their roles change or they are removed', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const m = await therapist(t, 'aviso@example.com', 'Aviso');
    const { memberId } = await addMember(t, owner, ws.id, m, [therapistRole]);
    const socket = await connectSocket(base);
    socket.send('authenticate', { token: m.accessToken, realm: 'therapists' });
    await socket.next('authenticated');
    await t.patch(`${W()}/members/${memberId}`, { roleIds: [adminRole] }, { token: owner.accessToken });
    expect((await socket.next('workspace-updated')).data).toEqual({ workspaceId: ws.id });
    await t.del(`${W()}/members/${memberId}`, { token: owner.accessToken });
    expect((await socket.next('workspace-updated')).data).toEqual({ workspaceId: ws.id });
    socket.close();
  });

  it('limits seats by plan: members and pending invitations count', async () => {
    const small = await createWorkspace(t, owner, 'Pequeño', 'team');
    await t.app.services.workspaces.setPlan(small.id, { id: 'team', seats: 2 });
    const role = small.roles.find((r) => r.name === 'Terapeuta')!.id;
    const inv = (email: string) =>
      t.post(`/api/v1/workspaces/${small.id}/invitations`, { email, roleIds: [role] }, { token: owner.accessToken });
    expect((await inv('uno@example.com')).statusCode).toBe(201);
    expectError(await inv('dos@example.com'), 409, 'seat_limit_reached');
  });
});

describe('roles', () => {
  const R = () => `${W()}/roles`;
  it('creates a role and lists it with its seats', async () => {
    const res = await t.post(
      R(),
      {
        name: 'Supervisión',
        permissions: [
          { action: 'read', subject: 'patient_histories' },
          { action: 'manage', subject: 'sessions', ownOnly: true },
        ],
      },
      { token: owner.accessToken },
    );
    expect(res.statusCode).toBe(201);
    const roles = json<Role[]>(await t.get(R(), { token: owner.accessToken }));
    expect(roles.find((r) => r.name === 'Supervisión')).toMatchObject({ isAdmin: false, seats: 0 });
    expect(roles.find((r) => r.name === 'Administrador')).toMatchObject({ isAdmin: true, seats: 2 });
  });

  it('refuses every kind of invalid permission list with its code', async () => {
    const post = (permissions: unknown[], name = 'Malo') => t.post(R(), { name, permissions }, { token: owner.accessToken });
    expectError(await post([]), 400, 'permission_missing');
    expectError(await post([{ action: 'fly', subject: 'sessions' }]), 400, 'invalid_permission');
    expectError(await post([{ action: 'create', subject: 'workspace_profile' }]), 400, 'invalid_action_combination');
    expectError(await post([{ action: 'read', subject: 'roles', ownOnly: true }]), 400, 'invalid_action_combination');
    expectError(
      await post([
        { action: 'read', subject: 'sessions' },
        { action: 'read', subject: 'sessions' },
      ]),
      400,
      'duplicate_permissions',
    );
    expectError(await post([{ action: 'read', subject: 'sessions' }], 'supervisión'), 409, 'role_exists');
  });

  it('never changes the administrator role', async () => {
    const admin = json<Role[]>(await t.get(R(), { token: owner.accessToken })).find((r) => r.isAdmin)!;
    expectError(
      await t.put(
        `${R()}/${admin.id}`,
        { name: 'Jefe', permissions: [{ action: 'read', subject: 'sessions' }] },
        { token: owner.accessToken },
      ),
      409,
      'cannot_update_admin',
    );
    expectError(await t.del(`${R()}/${admin.id}`, { token: owner.accessToken }), 409, 'cannot_update_admin');
    expectError(
      await t.put(
        `${R()}/${crypto.randomUUID()}`,
        { name: 'X', permissions: [{ action: 'read', subject: 'sessions' }] },
        { token: owner.accessToken },
      ),
      404,
      'role_not_found',
    );
  });

  it('refuses to delete a role used by a member or a pending invitation', async () => {
    const used = await createRole(t, owner, ws.id, 'En uso', [{ action: 'read', subject: 'sessions' }]);
    const pending = await createRole(t, owner, ws.id, 'Invitado', [{ action: 'read', subject: 'sessions' }]);
    const m = await therapist(t, 'usa@example.com', 'Usa');
    await addMember(t, owner, ws.id, m, [used.id]);
    await t.post(`${W()}/invitations`, { email: 'pendiente@example.com', roleIds: [pending.id] }, { token: owner.accessToken });
    expectError(await t.del(`${R()}/${used.id}`, { token: owner.accessToken }), 409, 'role_has_seats');
    expectError(await t.del(`${R()}/${pending.id}`, { token: owner.accessToken }), 409, 'role_has_seats');
    const free = await createRole(t, owner, ws.id, 'Libre', [{ action: 'read', subject: 'sessions' }]);
    expect((await t.del(`${R()}/${free.id}`, { token: owner.accessToken })).statusCode).toBe(204);
  });

  it('a member whose role lacks a permission is refused with access_denied', async () => {
    const m = await therapist(t, 'limitado@example.com', 'Limitado');
    const role = await createRole(t, owner, ws.id, 'Sin facturación', [{ action: 'read', subject: 'members' }]);
    await addMember(t, owner, ws.id, m, [role.id]);
    expect((await t.get(`${W()}/members`, { token: m.accessToken })).statusCode).toBe(200);
    expectError(await t.get(`${W()}/billing-info`, { token: m.accessToken }), 403, 'access_denied');
    // Nor through the workspace itself.
    expect(json<Workspace>(await t.get(W(), { token: m.accessToken })).billingInfo).toBeNull();
    expect(
      json<Workspace[]>(await t.get('/api/v1/workspaces', { token: m.accessToken })).find((w) => w.id === ws.id)!.billingInfo,
    ).toBeNull();
    expect(json<Workspace>(await t.get(W(), { token: owner.accessToken })).billingInfo).not.toBeNull();
    expectError(
      await t.post(R(), { name: 'Yo', permissions: [{ action: 'manage', subject: 'roles' }] }, { token: m.accessToken }),
      403,
      'access_denied',
    );
  });

  it('limits the number of roles', async () => {
    const other = await createWorkspace(t, owner, 'Muchos roles', 'freelance');
    for (let i = 1; i < 20; i++) await createRole(t, owner, other.id, `Rol ${i}`, [{ action: 'read', subject: 'sessions' }]);
    expectError(
      await t.post(
        `/api/v1/workspaces/${other.id}/roles`,
        { name: 'Uno más', permissions: [{ action: 'read', subject: 'sessions' }] },
        { token: owner.accessToken },
      ),
      409,
      'role_limit_exceeded',
    );
  });

  it('switches self-managed roles off only for the owner, with DESACTIVAR, for good', async () => {
    const path = `${W()}/roles-manager/disable`;
    const wrong = await t.post(path, { confirmation: 'desactivar' }, { token: owner.accessToken });
    expectError(wrong, 400, 'invalid_argument');
    expect(json<{ fields: { message: string }[] }>(wrong).fields[0]!.message).toBe('Escribe DESACTIVAR para confirmar');
    const lucas = await signUpConfirmedOrSignIn('lucas@example.com');
    expectError(await t.post(path, { confirmation: 'DESACTIVAR' }, { token: lucas }), 403, 'workspace_not_owner');
    expect(json<Workspace>(await t.post(path, { confirmation: 'DESACTIVAR' }, { token: owner.accessToken })).rolesManager).toBe('system');
    expectError(await t.post(path, { confirmation: 'DESACTIVAR' }, { token: owner.accessToken }), 409, 'roles_manager_cannot_be_updated');
    expectError(
      await t.post(R(), { name: 'Tarde', permissions: [{ action: 'read', subject: 'sessions' }] }, { token: owner.accessToken }),
      409,
      'roles_manager_not_user',
    );
  });

  it('keeps an audit log of security changes, readable by administrators only', async () => {
    const events = json<{ action: string; actor: { name: string } }[]>(await t.get(`${W()}/audit-events`, { token: owner.accessToken }));
    const actions = events.map((e) => e.action);
    for (const a of [
      'workspace.created',
      'role.created',
      'role.deleted',
      'member.invited',
      'member.joined',
      'member.updated',
      'member.removed',
      'invitation.canceled',
      'roles_manager.disabled',
    ])
      expect(actions, a).toContain(a);
    expect(events[0]!.actor.name).toBe('Carmen');
    const limited = await signUpConfirmedOrSignIn('limitado@example.com');
    expectError(await t.get(`${W()}/audit-events`, { token: limited }), 403, 'access_denied');
  });

  it('applies the plan set by an operator, with its features', async () => {
    await t.app.services.workspaces.setPlan(ws.id, { id: 'basic', seats: 3 });
    const got = json<Workspace>(await t.get(W(), { token: owner.accessToken }));
    expect(got.plan).toMatchObject({ id: 'basic', seats: 3, promptUpgrade: false });
    expect(got.features).toEqual({
      activePatientLimit: 30,
      sessionReminders: 1,
      canEmbedPublicServices: false,
      canCreateInvoiceBatch: false,
      advancedStatistics: false,
    });
    expect(got.maxSeats).toBe(3);
    const events = json<{ action: string; actor: { name: string } }[]>(
      await t.get(`${W()}/audit-events?limit=1`, { token: owner.accessToken }),
    );
    expect(events[0]).toMatchObject({ action: 'plan.changed', actor: { name: 'Operador' } });
  });
});

async function signUpConfirmedOrSignIn(email: string) {
  await t.rows(sql`update auth_challenges set created_at = created_at - interval '61 seconds'`);
  return (await signIn(t, email)).accessToken;
}
