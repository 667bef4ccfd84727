import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATIENT_SORTS } from '@divan/core';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist } from '../../test/workspace-fixtures';
import { patientsRepository, searchTextOf, type ListQuery, type NewPatient } from './patients.repository';

// A searched page comes from one statement over the term's matches (patient-search.queries.ts), an
// unsearched one from the name index: both must give the same pages, totals and counts.
let t: TestApp;
let ws: string;
const STATUSES = ['active', 'paused', 'inactive'] as const;
const FIRST = ['Ana', 'Luis', 'Álvaro', 'ana', 'Zoe', 'Marta'];
const LAST = ['García', null, 'Núñez', 'García', 'de la Vega', 'Abad', null];

beforeAll(async () => {
  t = await createTestApp();
  const owner = await therapist(t, 'busca@clinica.test', 'Elena');
  ws = (await createWorkspace(t, owner, 'Clínica Busca', 'clinic')).id;
  const other = (await createWorkspace(t, owner, 'Otra', 'clinic')).id;
  const rows: NewPatient[] = [];
  for (let i = 0; i < 37; i++) {
    const p = {
      workspaceId: i % 9 === 8 ? other : ws,
      firstName: FIRST[i % FIRST.length]!,
      lastName: LAST[i % LAST.length] ?? null,
      // Every patient of the workspace matches «consulta»; the other workspace's too, and must not show.
      email: `p${i}@consulta.test`,
      phone: null,
      treatmentStatus: STATUSES[i % 3]!,
      treatmentStartDate: i % 4 === 0 ? null : `2026-0${1 + (i % 9)}-1${i % 10}`,
      createdAt: new Date(Date.UTC(2026, 0, 1 + (i % 5))),
      searchText: '',
    };
    rows.push({ ...p, searchText: searchTextOf(p) });
  }
  await patientsRepository(t.app.services.database.db).insertMany(rows);
});
afterAll(() => t?.close());

describe('the searched list', () => {
  it('gives the pages, totals and counts of the unsearched list, for every sort, direction, tab and page', async () => {
    const repo = patientsRepository(t.app.services.database.db);
    let compared = 0;
    for (const sort of PATIENT_SORTS)
      for (const dir of ['asc', 'desc'] as const)
        for (const status of [undefined, ...STATUSES])
          for (const page of [1, 2, 3, 9]) {
            const q = { sort, dir, status, page, pageSize: 7 } as ListQuery;
            const plain = await repo.list(ws, { kind: 'all' }, q);
            const searched = await repo.list(ws, { kind: 'all' }, { ...q, q: 'Consulta' });
            expect(searched, `${sort} ${dir} ${status ?? 'all'} page ${page}`).toEqual(plain);
            compared += plain.items.length;
          }
    expect(compared).toBeGreaterThan(400);
  });

  it('counts only the matches, in the workspace and the scope, and an empty page still has its counts', async () => {
    const repo = patientsRepository(t.app.services.database.db);
    const all = await repo.list(ws, { kind: 'all' }, { sort: 'lastName', dir: 'asc', page: 1, pageSize: 50 } as ListQuery);
    expect(all.total).toBe(33);
    const vega = await repo.list(ws, { kind: 'all' }, { q: 'vega', sort: 'lastName', dir: 'asc', page: 1, pageSize: 50 } as ListQuery);
    expect(vega.items.map((p) => p.lastName)).toEqual(Array(vega.total).fill('de la Vega'));
    expect(vega.counts.active + vega.counts.paused + vega.counts.inactive).toBe(vega.total);
    const beyond = await repo.list(ws, { kind: 'all' }, { q: 'vega', sort: 'lastName', dir: 'asc', page: 40, pageSize: 50 } as ListQuery);
    expect(beyond).toMatchObject({ items: [], total: vega.total, counts: vega.counts });
    const none = await repo.list(ws, { kind: 'none' }, { q: 'consulta', sort: 'lastName', dir: 'asc', page: 1, pageSize: 50 } as ListQuery);
    expect(none).toEqual({ items: [], total: 0, counts: { active: 0, paused: 0, inactive: 0 } });
  });
});
