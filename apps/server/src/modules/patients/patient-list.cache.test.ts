// The patient list is served from a per-process cache of serialised pages (platform/cache/workspace-cache.ts, wired in PatientsService.listJson).
// These tests prime it, change patients through every write path, and expect the change at once —
// in the same process, and in a second process sharing the database and Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Patient, Workspace } from '@divan/core';
import { createSecondApp, createTestApp, json, type TestApp } from '../../test/test-app';
import { addMember, createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { importPatients, xlsx } from '../../test/spreadsheets';

type List = {
  items: { id: string; firstName: string; lastName: string | null; status: string; assignedTherapist: { name: string } | null }[];
  total: number;
  counts: Record<string, number>;
};

let t: TestApp;
let owner: Therapist;
let ws: Workspace;
let P: string;
const list = async (query = '', app: Pick<TestApp, 'get'> = t, token = owner.accessToken) => {
  const res = await app.get(`${P}${query}`, { token });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return json<List>(res);
};
const create = async (body: Record<string, unknown>) => json<Patient>(await t.post(P, body, { token: owner.accessToken }));

beforeAll(async () => {
  t = await createTestApp();
  owner = await therapist(t, 'marta@consulta.test', 'Marta');
  ws = await createWorkspace(t, owner, 'Clínica Marta', 'clinic');
  await t.app.services.workspaces.setPlan(ws.id, { id: 'team', seats: 10 });
  P = `/api/v1/workspaces/${ws.id}/patients`;
});
afterAll(() => t?.close());

describe('the cached patient list shows every change at once', () => {
  it('serves a repeated page from the cache, byte for byte the fresh answer', async () => {
    await create({ firstName: 'Irene', lastName: 'Cano' });
    const first = await t.get(`${P}?q=cano`, { token: owner.accessToken });
    const again = await t.get(`${P}?q=cano`, { token: owner.accessToken });
    expect(again.body).toBe(first.body);
    expect(json<List>(again).items.map((i) => i.firstName)).toEqual(['Irene']);
  });

  it('after create, edit, treatment, assignment and delete', async () => {
    expect((await list('?q=sanz')).total).toBe(0);
    const p = await create({ firstName: 'Hugo', lastName: 'Sanz' });
    expect((await list('?q=sanz')).items.map((i) => i.id)).toEqual([p.id]);

    await t.patch(`${P}/${p.id}`, { lastName: 'Sanz Ortega' }, { token: owner.accessToken });
    expect((await list('?q=sanz')).items[0]!.lastName).toBe('Sanz Ortega');

    expect((await list('?q=sanz')).counts).toEqual({ active: 1, paused: 0, inactive: 0 });
    await t.put(`${P}/${p.id}/treatment`, { status: 'paused' }, { token: owner.accessToken });
    expect((await list('?q=sanz')).counts).toEqual({ active: 0, paused: 1, inactive: 0 });

    const luis = await therapist(t, 'luis@consulta.test', 'Luis');
    await addMember(t, owner, ws.id, luis, [ws.roles.find((r) => r.name === 'Terapeuta')!.id]);
    expect((await list('?q=sanz')).items[0]!.assignedTherapist).toBeNull();
    expect((await list('?q=sanz', t, luis.accessToken)).items).toEqual([]);
    await t.put(`${P}/${p.id}/assignment`, { therapistId: luis.userId }, { token: owner.accessToken });
    expect((await list('?q=sanz')).items[0]!.assignedTherapist?.name).toBe('Luis');
    expect((await list('?q=sanz', t, luis.accessToken)).items.map((i) => i.id)).toEqual([p.id]);

    // A therapist's new name shows in every page that names them.
    await t.patch('/api/v1/me', { firstName: 'Luis Miguel' }, { token: luis.accessToken });
    expect((await list('?q=sanz')).items[0]!.assignedTherapist?.name).toBe('Luis Miguel');

    await t.del(`${P}/${p.id}`, { token: owner.accessToken });
    expect((await list('?q=sanz')).total).toBe(0);
  });

  it('after an Excel import', async () => {
    expect((await list('?q=importada')).total).toBe(0);
    const file = await xlsx([
      ['Nombre', 'Apellidos', 'Email'],
      ['Importada', 'Uno', 'imp1@correo.test'],
      ['Importada', 'Dos', 'imp2@correo.test'],
    ]);
    await importPatients(t, ws.id, owner.accessToken, file);
    expect((await list('?q=importada')).total).toBe(2);
  });
});

const redisUrl = process.env.REDIS_URL;
describe.skipIf(!redisUrl || !process.env.TEST_DATABASE_URL)('across two server processes sharing PostgreSQL and Redis', () => {
  let b: TestApp | undefined;
  afterAll(() => b?.close());

  it("a change made through one process empties the other's cached pages", async () => {
    const a = await createTestApp({ redisUrl });
    try {
      b = await createSecondApp(a, { redisUrl });
      const elena = await therapist(a, 'elena@dos.test', 'Elena');
      const own = json<Workspace[]>(await a.get('/api/v1/workspaces', { token: elena.accessToken }))[0]!;
      const path = `/api/v1/workspaces/${own.id}/patients`;
      const onB = async () => json<List>(await b!.get(`${path}?q=vega`, { token: elena.accessToken })).total;
      expect(await onB()).toBe(0); // B now keeps this page
      expect((await a.post(path, { firstName: 'Nuria', lastName: 'Vega' }, { token: elena.accessToken })).statusCode).toBe(201);
      await expect.poll(onB, { timeout: 2000, interval: 20 }).toBe(1);
    } finally {
      await b?.close();
      b = undefined;
      await a.close();
    }
  });
});
