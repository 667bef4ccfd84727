// The calendar hears changes by others live: session events reach the members' sockets, ids only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { clinic, nextWeek, W, type Clinic } from '../../test/session-fixtures';
import { therapist } from '../../test/workspace-fixtures';
import { authenticatedSocket } from '../../test/ws-client';

let t: TestApp;
let base: string;
let c: Clinic;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  c = await clinic(t, 'directo');
}, 60_000);
afterAll(() => t?.close());

describe('session changes on the members’ sockets', () => {
  it('a session booked and canceled by reception reaches the therapist’s calendar, with ids only, and nobody outside', async () => {
    const outsider = await therapist(t, 'fuera@directo.test', 'Fuera');
    const [mine, theirs] = [await authenticatedSocket(base, c.tere.accessToken), await authenticatedSocket(base, outsider.accessToken)];
    const res = await t.post(
      `${W(c.ws.id)}/sessions`,
      { patientId: c.ana, therapistId: c.tere.userId, day: nextWeek(), from: '10:00', to: '10:50' },
      { token: c.rosa.accessToken },
    );
    const s = json<{ session: Session }>(res).session;
    const created = await mine.nextDomainEvent();
    expect(created.data).toEqual({
      name: 'session.created',
      workspaceId: c.ws.id,
      sessionId: s.id,
      patientId: c.ana,
      therapistId: c.tere.userId,
    });
    expect(JSON.stringify(created.data)).not.toContain('Ana');
    await t.post(`${W(c.ws.id)}/sessions/${s.id}/cancel`, { reason: 'late' }, { token: c.rosa.accessToken });
    expect((await mine.nextDomainEvent()).data).toMatchObject({ name: 'session.canceled', sessionId: s.id });
    await expect(theirs.next('workspace-event', 500)).rejects.toThrow(/no 'workspace-event'/);
    mine.close();
    theirs.close();
  });
});
