import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist } from '../../test/workspace-fixtures';

let t: TestApp;
let workspaceId: string;

beforeAll(async () => {
  t = await createTestApp();
  const owner = await therapist(t, 'carmen@consulta.test', 'Carmen');
  workspaceId = (await createWorkspace(t, owner, 'Consulta Carmen')).id;
});
afterAll(() => t?.close());

/** The statement's error, or null when it ran. */
const failureOf = async (query: ReturnType<typeof sql>) => {
  try {
    await t.rows(query);
    return null;
  } catch (err) {
    const e = err as { message?: string; cause?: { message?: string } };
    return `${e.message ?? ''} ${e.cause?.message ?? ''}`;
  }
};

describe(`audit log (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('is append-only in the database: UPDATE, DELETE and TRUNCATE fail, INSERT works', async () => {
    const count = async () =>
      (await t.rows<{ n: number }>(sql`select count(*)::int as n from audit_events where workspace_id = ${workspaceId}`))[0]!.n;
    const before = await count();
    expect(before).toBeGreaterThan(0);
    expect(await failureOf(sql`update audit_events set action = 'nada' where workspace_id = ${workspaceId}`)).toMatch(/append-only/);
    expect(await failureOf(sql`delete from audit_events where workspace_id = ${workspaceId}`)).toMatch(/append-only/);
    expect(await failureOf(sql`truncate audit_events`)).toMatch(/append-only/);
    expect(await count()).toBe(before);
    expect(await t.rows(sql`select action from audit_events where workspace_id = ${workspaceId} and action = 'nada'`)).toEqual([]);
    expect(await failureOf(sql`insert into audit_events (workspace_id, action) values (${workspaceId}, 'plan.changed')`)).toBeNull();
    expect(await count()).toBe(before + 1);
  });
});
