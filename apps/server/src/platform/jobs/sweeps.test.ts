// The hourly sweeps: each deletes what is past its time, and nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { mkdirSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Patient, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';

let t: TestApp;
let owner: Therapist;
let ws: Workspace;
beforeAll(async () => {
  t = await createTestApp();
  owner = await therapist(t, 'barrido@example.com', 'Marta');
  ws = await createWorkspace(t, owner, 'Clínica Barrido', 'team');
});
afterAll(() => t?.close());

const count = async (q: ReturnType<typeof sql>) => Number((await t.rows<{ n: string }>(q))[0]!.n);

describe('sweeps', () => {
  it('erases blocked patients whose retention period is over, and keeps those still inside it', async () => {
    const P = `/api/v1/workspaces/${ws.id}/patients`;
    const create = async (firstName: string) => json<Patient>(await t.post(P, { firstName }, { token: owner.accessToken }));
    const [old, recent] = [await create('Caducado'), await create('Reciente')];
    for (const p of [old, recent])
      expect(json(await t.del(`${P}/${p.id}`, { token: owner.accessToken }))).toMatchObject({ result: 'blocked' });
    await t.rows(
      sql`update patients set last_activity_at = now() - interval '5 years 1 day', treatment_end_date = null where id = ${old.id}`,
    );
    await t.app.services.jobs.runSweeps();
    expect(await t.rows(sql`select first_name from patients where id in (${old.id}, ${recent.id})`)).toEqual([{ first_name: 'Reciente' }]);
  });

  it('deletes challenges a day past their expiry and expired refresh tokens, and keeps live ones', async () => {
    const live = await count(sql`select count(*) as n from refresh_tokens where expires_at > now()`);
    await t.rows(sql`update auth_challenges set expires_at = now() - interval '2 days'`);
    await t.rows(
      sql`insert into refresh_tokens (token_hash, session_id, expires_at) select 'viejo', id, now() - interval '1 hour' from device_sessions limit 1`,
    );
    await t.app.services.jobs.runSweeps();
    expect(await count(sql`select count(*) as n from auth_challenges`)).toBe(0);
    expect(await count(sql`select count(*) as n from refresh_tokens where token_hash = 'viejo'`)).toBe(0);
    expect(await count(sql`select count(*) as n from refresh_tokens`)).toBe(live);
  });

  it('purges finished mail after 30 days and never mail still waiting', async () => {
    // The sign-up mail's relay job first (it would send the mail this test marks as waiting).
    await expect
      .poll(() => count(sql`select count(*) as n from mail_outbox where status in ('queued', 'sending')`), { timeout: 20_000 })
      .toBe(0);
    await t.rows(sql`update mail_outbox set created_at = now() - interval '31 days'`);
    await t.rows(sql`update mail_outbox set status = 'queued' where id = (select id from mail_outbox limit 1)`);
    await t.app.services.jobs.runSweeps();
    expect(await t.rows(sql`select status from mail_outbox`)).toEqual([{ status: 'queued' }]);
  });

  it('removes temporary files of uploads abandoned a day ago, not those being written', async () => {
    const dir = join(t.config.dataDir, 'files', 'documents', 'ab');
    mkdirSync(dir, { recursive: true });
    const [stale, fresh] = [join(dir, 'x.1.tmp'), join(dir, 'y.2.tmp')];
    writeFileSync(stale, 'a');
    writeFileSync(fresh, 'b');
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    utimesSync(stale, twoDaysAgo, twoDaysAgo);
    await t.app.services.jobs.runSweeps();
    expect([existsSync(stale), existsSync(fresh)]).toEqual([false, true]);
  });
});
