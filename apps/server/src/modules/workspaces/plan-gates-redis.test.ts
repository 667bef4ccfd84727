// The plan gates' cached workspace rows across server processes (issue 31): a plan changed through one
// process is seen by the other's gates at once (the change travels through Redis), not after the TTL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { redisUrlRequiredUnderCi } from '../../test/redis-fixtures';
import { createSecondApp, createTestApp, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist } from '../../test/workspace-fixtures';
import { PLAN_GATE_TTL_MS } from './workspaces.service';

const redisUrl = redisUrlRequiredUnderCi('plan gates dropped in every process');

describe.skipIf(!redisUrl || !process.env.TEST_DATABASE_URL)('plan gates across processes', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ redisUrl });
    b = await createSecondApp(a, { redisUrl });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a plan set through A drops B’s cached row within a fraction of the TTL', async () => {
    const owner = await therapist(a, 'plan-gates@divan.test');
    const { id: workspaceId } = (await createWorkspace(a, owner, 'Consulta Norte', 'freelance')) as { id: string };
    // Out of its trial, on the basic plan: the gates then differ from the team plan's.
    await a.rows(sql`UPDATE workspaces SET free_trial_end = now() - interval '1 day' WHERE id = ${workspaceId}`);
    await a.app.services.workspaces.setPlan(workspaceId, { id: 'basic' });
    const before = JSON.stringify(await b.app.services.workspaces.featuresForRead(workspaceId)); // cached in B now
    await a.app.services.workspaces.setPlan(workspaceId, { id: 'team', seats: 3 });
    const expected = JSON.stringify(await a.app.services.workspaces.featuresOf(workspaceId));
    expect(expected).not.toBe(before);
    const t0 = Date.now();
    let seen = before;
    while (seen !== expected && Date.now() - t0 < PLAN_GATE_TTL_MS) {
      seen = JSON.stringify(await b.app.services.workspaces.featuresForRead(workspaceId));
      if (seen !== expected) await new Promise((r) => setTimeout(r, 20));
    }
    expect(seen).toBe(expected);
    expect(Date.now() - t0).toBeLessThan(PLAN_GATE_TTL_MS / 2);
  });
});
