// Domain events reach the sockets of the workspace's members as `workspace-event` frames, with ids only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Patient, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { addMember, createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { authenticatedSocket } from '../../test/ws-client';

let t: TestApp;
let base: string;
let owner: Therapist;
let colleague: Therapist;
let outsider: Therapist;
let ws: Workspace;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await therapist(t, 'sol@puente.test', 'Sol');
  colleague = await therapist(t, 'luna@puente.test', 'Luna');
  outsider = await therapist(t, 'nube@puente.test', 'Nube');
  ws = await createWorkspace(t, owner, 'Clínica Puente', 'team');
  await t.app.services.workspaces.setPlan(ws.id, { id: 'team', seats: 5 });
  await addMember(t, owner, ws.id, colleague, [ws.roles.find((r) => r.name === 'Terapeuta')!.id]);
});
afterAll(() => t?.close());

describe("domain events on the members' sockets", () => {
  it('tells the other members that a patient was created, with its ids only, and nobody outside', async () => {
    const [mine, theirs] = [await authenticatedSocket(base, colleague.accessToken), await authenticatedSocket(base, outsider.accessToken)];
    const patient = json<Patient>(
      await t.post(`/api/v1/workspaces/${ws.id}/patients`, { firstName: 'Irene', lastName: 'Confidencial' }, { token: owner.accessToken }),
    );
    const frame = await mine.nextDomainEvent();
    expect(frame.data).toEqual({ name: 'patient.created', workspaceId: ws.id, patientId: patient.id, assignedTherapistId: null });
    expect(JSON.stringify(frame.data)).not.toContain('Confidencial');
    await expect(theirs.next('workspace-event', 500)).rejects.toThrow(/no 'workspace-event'/);
    mine.close();
    theirs.close();
  });
});
