// "Today" is the practice's day in Madrid, not the server's UTC date: at 00:30 in Madrid it is already
// the next day there while UTC still says the day before.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Patient } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { therapist, type Therapist } from '../../test/workspace-fixtures';

let t: TestApp;
let owner: Therapist;
let workspaceId: string;
beforeAll(async () => {
  // 00:30 on 2 March in Madrid (winter time, UTC+1) is 23:30 on 1 March in UTC. Only Date is faked: timers run.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-03-01T23:30:00Z'));
  t = await createTestApp();
  owner = await therapist(t, 'medianoche@example.com', 'Noa');
  workspaceId = json<{ id: string }[]>(await t.get('/api/v1/workspaces', { token: owner.accessToken }))[0]!.id;
});
afterAll(async () => {
  vi.useRealTimers();
  await t?.close();
});

describe('today in Madrid', () => {
  it('starts a treatment created at 00:30 in Madrid on that Madrid day', async () => {
    const p = json<Patient>(
      await t.post(`/api/v1/workspaces/${workspaceId}/patients`, { firstName: 'Alba' }, { token: owner.accessToken }),
    );
    expect(p.treatment?.startDate).toBe('2026-03-02');
  });
});
