import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access } from '../../platform/auth/access';
import { createTestApp, type TestApp } from '../../test/test-app';
import { addMember, createRole, createWorkspace, insertRole, therapist, type Therapist } from '../../test/workspace-fixtures';

/**
 * Every workspace route × {anonymous, member of another workspace, member without the permission,
 * member with it, owner}: no leak, no 500. Routes are read from the app, so the matrix grows with
 * every feature that adds one.
 */
let t: TestApp;
let owner: Therapist;
let outsider: Therapist;
let workspaceId: string;
const withPermission = new Map<string, Therapist>();
let bare: Therapist;
let admin: Therapist;

type Route = { method: string; url: string; access: Access };
let routes: Route[];
const need = (r: Route) => (r.access as { workspace: 'member' | 'owner' | [string, string] }).workspace;
const keyOf = (n: ReturnType<typeof need>) => (Array.isArray(n) ? n.join(':') : n);

beforeAll(async () => {
  t = await createTestApp();
  routes = t.app.declaredRoutes().filter((r) => typeof r.access === 'object' && r.method !== 'HEAD');
  owner = await therapist(t, 'owner@matrix.test', 'Olga');
  outsider = await therapist(t, 'outsider@matrix.test', 'Óscar');
  const ws = await createWorkspace(t, owner, 'Clínica Matriz', 'clinic');
  workspaceId = ws.id;
  await t.app.services.workspaces.setPlan(workspaceId, { id: 'team', seats: 40 });
  // A member with only a harmless permission: for every route needing something else, "without".
  bare = await therapist(t, 'bare@matrix.test', 'Berta');
  const bareRole = await createRole(t, owner, workspaceId, 'Solo perfil', [{ action: 'read', subject: 'workspace_profile' }]);
  await addMember(t, owner, workspaceId, bare, [bareRole.id]);
  admin = await therapist(t, 'admin@matrix.test', 'Adela');
  await addMember(t, owner, workspaceId, admin, [ws.roles.find((r) => r.name === 'Administrador')!.id]);
  // One member per distinct permission, holding exactly that permission.
  let i = 0;
  for (const n of new Set(routes.map((r) => keyOf(need(r))))) {
    if (n === 'member' || n === 'owner') continue;
    const [action, subject] = n.split(':');
    const m = await therapist(t, `p${i}@matrix.test`, `P${i}`);
    const role = await insertRole(t, workspaceId, `Rol ${n}`, [{ action: action as 'read', subject: subject as 'members' }]);
    await addMember(t, owner, workspaceId, m, [role.id]);
    withPermission.set(n, m);
    i++;
  }
}, 120_000);
afterAll(() => t?.close());

const call = (r: Route, token?: string, id = workspaceId) => {
  const url = r.url.replace(':workspaceId', id).replace(/:(\w+)/g, () => crypto.randomUUID());
  const hasBody = ['POST', 'PUT', 'PATCH'].includes(r.method);
  return t.app.inject({
    method: r.method as 'GET',
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(hasBody ? { payload: {} } : {}),
  });
};
const codeOf = (res: { body: string }) => {
  try {
    return (JSON.parse(res.body) as { code?: string }).code;
  } catch {
    return undefined;
  }
};

describe('authorization matrix over every workspace route', () => {
  it('covers the workspace routes', () => {
    expect(routes.length).toBeGreaterThanOrEqual(14);
  });

  it('anonymous callers get invalid_access_token', async () => {
    for (const r of routes) expect([`${r.method} ${r.url}`, codeOf(await call(r))]).toEqual([`${r.method} ${r.url}`, 'invalid_access_token']);
  });

  it('a member of another workspace gets 404, the same as for a workspace that does not exist', async () => {
    for (const r of routes) {
      const res = await call(r, outsider.accessToken);
      expect([`${r.method} ${r.url}`, res.statusCode, codeOf(res)]).toEqual([`${r.method} ${r.url}`, 404, 'workspace_not_found']);
      const ghost = await call(r, outsider.accessToken, crypto.randomUUID());
      expect(ghost.body).toBe(res.body);
    }
  });

  it('a member without the permission is refused', async () => {
    for (const r of routes) {
      const n = need(r);
      if (n === 'member' || keyOf(n) === 'read:workspace_profile') continue;
      const res = await call(r, bare.accessToken);
      const expected = n === 'owner' ? 'workspace_not_owner' : 'access_denied';
      expect([`${r.method} ${r.url}`, res.statusCode, codeOf(res)]).toEqual([`${r.method} ${r.url}`, 403, expected]);
    }
  });

  it('a member with the permission, and the owner, get past the guard and never a 500', async () => {
    const guardCodes = ['invalid_access_token', 'workspace_not_found', 'access_denied', 'workspace_not_owner'];
    for (const r of routes) {
      const n = need(r);
      const callers = [owner, n === 'member' ? bare : n === 'owner' ? undefined : withPermission.get(keyOf(n))].filter(Boolean) as Therapist[];
      for (const who of callers) {
        const res = await call(r, who.accessToken);
        expect(res.statusCode, `${r.method} ${r.url} as ${who.email}: ${res.body}`).toBeLessThan(500);
        expect(guardCodes, `${r.method} ${r.url} as ${who.email}`).not.toContain(codeOf(res));
      }
    }
    // An administrator who is not the owner still may not do the owner's things.
    for (const r of routes.filter((x) => need(x) === 'owner')) expect(codeOf(await call(r, admin.accessToken))).toBe('workspace_not_owner');
  });
});
