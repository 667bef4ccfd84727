// Every workspace request resolves the caller's membership (roles → CASL ability). It is cached per
// process; these tests change members and roles and expect the new permissions on the very next request,
// in the same process and in a second one sharing PostgreSQL and Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '@divan/core';
import { createSecondApp, createTestApp, type TestApp } from '../../test/test-app';
import { addMember, createRole, createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';

const billing = (ws: string) => `/api/v1/workspaces/${ws}/billing-info`;
const code = (res: { json(): unknown }) => (res.json() as { code?: string }).code;

describe('cached memberships follow every change to members and roles', () => {
  let t: TestApp;
  let owner: Therapist;
  let ana: Therapist;
  let ws: Workspace;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await therapist(t, 'dueno@centro.test', 'Dueño');
    ana = await therapist(t, 'ana@centro.test', 'Ana');
    ws = await createWorkspace(t, owner, 'Centro Norte', 'clinic');
    await t.app.services.workspaces.setPlan(ws.id, { id: 'team', seats: 10 });
  });
  afterAll(() => t?.close());

  it("a role's permissions, the member's roles, and removal", async () => {
    const role = await createRole(t, owner, ws.id, 'Administración', [{ action: 'read', subject: 'workspace_billing' }]);
    const plain = await createRole(t, owner, ws.id, 'Sin facturación', [{ action: 'read', subject: 'patient_files' }]);
    const { memberId } = await addMember(t, owner, ws.id, ana, [role.id]);
    expect((await t.get(billing(ws.id), { token: ana.accessToken })).statusCode).toBe(200);
    expect((await t.get(billing(ws.id), { token: ana.accessToken })).statusCode).toBe(200); // now cached

    // The role loses the permission.
    await t.put(
      `/api/v1/workspaces/${ws.id}/roles/${role.id}`,
      { name: 'Administración', permissions: [{ action: 'read', subject: 'patient_files' }] },
      { token: owner.accessToken },
    );
    expect(code(await t.get(billing(ws.id), { token: ana.accessToken }))).toBe('access_denied');
    await t.put(
      `/api/v1/workspaces/${ws.id}/roles/${role.id}`,
      { name: 'Administración', permissions: [{ action: 'read', subject: 'workspace_billing' }] },
      { token: owner.accessToken },
    );
    expect((await t.get(billing(ws.id), { token: ana.accessToken })).statusCode).toBe(200);

    // The member gets another role.
    await t.patch(`/api/v1/workspaces/${ws.id}/members/${memberId}`, { roleIds: [plain.id] }, { token: owner.accessToken });
    expect(code(await t.get(billing(ws.id), { token: ana.accessToken }))).toBe('access_denied');

    // The member is removed.
    expect((await t.get(`/api/v1/workspaces/${ws.id}`, { token: ana.accessToken })).statusCode).toBe(200);
    await t.del(`/api/v1/workspaces/${ws.id}/members/${memberId}`, { token: owner.accessToken });
    expect(code(await t.get(`/api/v1/workspaces/${ws.id}`, { token: ana.accessToken }))).toBe('workspace_not_found');
  });
});

const redisUrl = process.env.REDIS_URL;
describe.skipIf(!redisUrl || !process.env.TEST_DATABASE_URL)('across two server processes sharing PostgreSQL and Redis', () => {
  it('a role changed through one process changes what the other allows', async () => {
    const a = await createTestApp({ redisUrl });
    let b: TestApp | undefined;
    try {
      b = await createSecondApp(a, { redisUrl });
      const owner = await therapist(a, 'dueno@dos.test', 'Dueño');
      const luis = await therapist(a, 'luis@dos.test', 'Luis');
      const ws = await createWorkspace(a, owner, 'Centro Sur', 'clinic');
      await a.app.services.workspaces.setPlan(ws.id, { id: 'team', seats: 10 });
      const role = await createRole(a, owner, ws.id, 'Administración', [{ action: 'read', subject: 'workspace_billing' }]);
      await addMember(a, owner, ws.id, luis, [role.id]);
      const onB = async () => (await b!.get(billing(ws.id), { token: luis.accessToken })).statusCode;
      expect(await onB()).toBe(200); // B now keeps Luis's membership
      await a.put(
        `/api/v1/workspaces/${ws.id}/roles/${role.id}`,
        { name: 'Administración', permissions: [{ action: 'read', subject: 'patient_files' }] },
        { token: owner.accessToken },
      );
      await expect.poll(onB, { timeout: 2000, interval: 20 }).toBe(403);
    } finally {
      await b?.close();
      await a.close();
    }
  });
});
