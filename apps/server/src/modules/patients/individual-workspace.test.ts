import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Patient, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';

let t: TestApp;
let owner: Therapist;
let individual: Workspace;
let team: Workspace;
const create = (ws: Workspace, body: Record<string, unknown>) =>
  t.post(`/api/v1/workspaces/${ws.id}/patients`, body, { token: owner.accessToken });
const assigneeOf = async (ws: Workspace, id: string) =>
  json<Patient>(await t.get(`/api/v1/workspaces/${ws.id}/patients/${id}`, { token: owner.accessToken })).assignedTherapist;

beforeAll(async () => {
  t = await createTestApp();
  owner = await therapist(t, 'laura@consulta.test', 'Laura');
  // Sign-up gives every therapist their own Individual workspace.
  individual = json<Workspace[]>(await t.get('/api/v1/workspaces', { token: owner.accessToken }))[0]!;
  team = await createWorkspace(t, owner, 'Equipo Laura', 'team');
});
afterAll(() => t?.close());

describe('in an Individual workspace a patient is the owner’s', () => {
  it('assigns a new patient to the owner there, and to nobody in a team', async () => {
    expect(individual.template).toBe('freelance');
    const mine = json<Patient>(await create(individual, { firstName: 'Ana', lastName: 'Ruiz' }));
    expect(mine.assignedTherapist).toEqual({ id: owner.userId, name: 'Laura' });
    const teams = json<Patient>(await create(team, { firstName: 'Bea', lastName: 'Gil' }));
    expect(teams.assignedTherapist).toBeNull();
  });

  it('lists them under the owner, so the filter «Sin asignar» finds none', async () => {
    const unassigned = json<{ items: unknown[] }>(
      await t.get(`/api/v1/workspaces/${individual.id}/patients?therapistId=unassigned`, { token: owner.accessToken }),
    );
    expect(unassigned.items).toEqual([]);
  });

  it('the migration gives the owner the Individual workspace’s older unassigned patients, and leaves teams alone', async () => {
    const old = json<Patient>(await create(individual, { firstName: 'Carmen' }));
    const teamOld = json<Patient>(await create(team, { firstName: 'Dolores' }));
    // As patients were kept before the rule.
    await t.rows(sql`update patients set assigned_therapist_id = null where id in (${old.id}, ${teamOld.id})`);
    expect(await assigneeOf(individual, old.id)).toBeNull();

    const migration = readFileSync(new URL('../../../drizzle/0014_individual_patients_owner.sql', import.meta.url), 'utf8');
    await t.rows(sql.raw(migration));
    expect(await assigneeOf(individual, old.id)).toEqual({ id: owner.userId, name: 'Laura' });
    expect(await assigneeOf(team, teamOld.id)).toBeNull();
  });
});
