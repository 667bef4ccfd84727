import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { patientListQuery } from '@divan/core';
import { buildApp } from '../app';
import { loadConfig } from '../platform/config';
import { migratedDataDir } from '../test/pglite-data-dir';
import { runToExit, onPostgresPass } from '../test/server-process';
import { DEMO_PASSWORD, DEMO_THERAPISTS, DEMO_WORKSPACE } from './demo-data';

// Its database migrated already (test/pglite-data-dir.ts): the test is about the demo's data.
const dir = onPostgresPass ? '' : await migratedDataDir('divan-demo-');
// The clinical key file the first start creates beside the data dir goes too.
afterAll(() => [dir, `${dir}.clinical-key`].forEach((d) => d && rmSync(d, { recursive: true, force: true })));
// Always the embedded database in its own data dir, whatever the caller's environment.
const env = { DATA_DIR: dir, DATABASE_URL: '', PUBLIC_URL: 'http://localhost:3000' };
const demo = () => runToExit(env, 240_000, ['ops', 'demo']);

describe.skipIf(onPostgresPass)('npm run demo', () => {
  it('creates a clinic with two therapists and forty patients, and running it again adds nothing', async () => {
    const first = await demo();
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain(`Demo workspace "${DEMO_WORKSPACE}" (plan team): 40 patients created, 0 already there`);
    expect(first.output).toContain('http://localhost:3000');
    expect(first.output).toContain(`email:    ${DEMO_THERAPISTS.lead.email}`);
    expect(first.output).toContain(`password: ${DEMO_PASSWORD}`);
    const again = await demo();
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain('0 patients created, 40 already there, 0 history entries added');

    const app = await buildApp(
      { ...loadConfig({ ...env, NODE_ENV: 'test', LOG_LEVEL: 'silent' }), databaseUrl: undefined },
      { logger: false },
    );
    try {
      const { auth, users, workspaces, patients, history } = app.services;
      const lead = (await users.findByEmail(DEMO_THERAPISTS.lead.email))!;
      const colleague = (await users.findByEmail(DEMO_THERAPISTS.colleague.email))!;
      // The printed credentials work: the password is right and the email confirmed.
      await expect(auth.startLogin(DEMO_THERAPISTS.lead.email, DEMO_PASSWORD)).resolves.toHaveProperty('challenge');
      const clinics = (await workspaces.listForUser(lead.id)).filter((w) => w.name === DEMO_WORKSPACE);
      expect(clinics).toHaveLength(1);
      expect(clinics[0]!.plan.id).toBe('team');
      expect(await workspaces.isMember(clinics[0]!.id, colleague.id)).toBe(true);

      const caller = { member: (await workspaces.resolveMembership(clinics[0]!.id, lead.id))!, userId: lead.id };
      const list = await patients.list(caller, patientListQuery.parse({ pageSize: 100 }));
      expect(list.total).toBe(40);
      expect(list.counts).toEqual({ active: 29, paused: 4, inactive: 7 });
      const assigned = list.items.map((p) => p.assignedTherapist?.id ?? null);
      expect(assigned.filter((id) => id === lead.id).length).toBeGreaterThan(5);
      expect(assigned.filter((id) => id === colleague.id).length).toBeGreaterThan(5);
      expect(assigned.filter((id) => id === null).length).toBeGreaterThan(3);
      const ended = await patients.get(caller, list.items.find((p) => p.firstName === 'Tomás')!.id);
      expect(ended.treatment).toMatchObject({ status: 'inactive', endingReason: 'completed' });
      // Notes were encrypted with the workspace's data key (master key in the key file) and read back with it.
      const notes = await history.list(caller, ended.id);
      expect(notes.length).toBeGreaterThanOrEqual(3);
      expect(notes.at(-1)!.title).toBe('Primera sesión: evaluación inicial');
      expect(notes.at(-1)!.body).toContain('Acude Tomás a consulta');
    } finally {
      await app.close();
    }
  }, 300_000);
});
