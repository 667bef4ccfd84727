import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { ChatMessage, Patient, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { connectSocket } from '../../test/ws-client';
import { addMember, createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { patientSocketKey } from '../../platform/realtime/realtime';

let t: TestApp;
let base: string;
let owner: Therapist;
let assigned: Therapist;
let other: Therapist;
let ws: Workspace;
let irene: Patient;
let C: string;
const account = randomUUID();
/** What reached the patient account's sockets (no patient socket can sign in yet: the accounts module adds it). */
const toPatient: { event: string; data: unknown }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [owner, assigned, other] = await Promise.all([
    therapist(t, 'dir@rt.test', 'Dora'),
    therapist(t, 'ana@rt.test', 'Ana'),
    therapist(t, 'otto@rt.test', 'Otto'),
  ]);
  ws = await createWorkspace(t, owner, 'Clínica Luna', 'clinic');
  const role = [ws.roles.find((r) => r.name === 'Terapeuta')!.id];
  await addMember(t, owner, ws.id, assigned, role);
  await addMember(t, owner, ws.id, other, role);
  irene = json<Patient>(
    await t.post(
      `/api/v1/workspaces/${ws.id}/patients`,
      { firstName: 'Irene', lastName: 'Campos', assignedTherapistId: assigned.userId },
      { token: owner.accessToken },
    ),
  );
  C = `/api/v1/workspaces/${ws.id}/chats`;
  t.app.services.linkChatPatients({
    fileOf: async (acc, fileId) => (acc === account && fileId === irene.id ? { workspaceId: ws.id } : null),
    accountsOf: async (fileId) => (fileId === irene.id ? [account] : []),
    filesOf: async (acc) => (acc === account ? [irene.id] : []),
  });
  t.app.services.realtime.onUserEvent((key, event, data) => void (key === patientSocketKey(account) && toPatient.push({ event, data })));
});
afterAll(() => t?.close());

const socketOf = async (token: string) => {
  const s = await connectSocket(base);
  s.send('authenticate', { token, realm: 'therapists' });
  await s.next('authenticated');
  return s;
};
const settle = () => new Promise((r) => setTimeout(r, 150));

describe('chat over the websocket', () => {
  it('sends the counters right after authenticated, then each message and counter change to who reads the file', async () => {
    await t.app.services.chat.sendAsPatient({ kind: 'patient', patientAccountId: account }, irene.id, { body: 'Hola' });
    const ana = await socketOf(assigned.accessToken);
    expect((await ana.next('chat-notification-counters')).data).toEqual({ counters: { [irene.id]: { count: 1 } } });
    const otto = await socketOf(other.accessToken);
    expect((await otto.next('chat-notification-counters')).data).toEqual({ counters: {} });

    const sent = await t.app.services.chat.sendAsPatient({ kind: 'patient', patientAccountId: account }, irene.id, { body: '¿Estás?' });
    const frame = (await ana.next('chat-message')).data as { patientFileId: string; message: ChatMessage };
    expect(frame).toMatchObject({ patientFileId: irene.id, message: { id: sent.id, body: '¿Estás?' } });
    expect((await ana.next('chat-notification-counter')).data).toEqual({ patientFileId: irene.id, count: 2 });
    // The patient's own sockets hear their message too.
    expect(toPatient.filter((f) => f.event === 'chat-message')).toHaveLength(2);

    await t.post(`${C}/${irene.id}/read`, { upTo: sent.id }, { token: owner.accessToken });
    expect((await ana.next('chat-notification-counter')).data).toEqual({ patientFileId: irene.id, count: 0 });

    const reply = json<ChatMessage>(await t.post(`${C}/${irene.id}/messages`, { body: 'Sí, dime' }, { token: assigned.accessToken }));
    expect(((await ana.next('chat-message')).data as { message: ChatMessage }).message.id).toBe(reply.id);
    expect(toPatient.at(-1)).toEqual({ event: 'chat-notification-counter', data: { patientFileId: irene.id, count: 1 } });
    await settle();
    // Otto (a clinic therapist not assigned to Irene) heard nothing of it.
    await expect(otto.next('chat-message', 300)).rejects.toThrow();
    ana.close();
    otto.close();
  });

  it('relays typing to the other side, at most once per interval, and only from who reads the file', async () => {
    const ana = await socketOf(assigned.accessToken);
    const otto = await socketOf(other.accessToken);
    const typing = () => toPatient.filter((f) => f.event === 'chat-typing').length;
    otto.send('chat-typing', { patientFileId: irene.id });
    ana.send('chat-typing', { patientFileId: irene.id });
    ana.send('chat-typing', { patientFileId: irene.id });
    ana.send('chat-typing', { patientFileId: 'no' });
    await settle();
    await settle();
    expect(typing()).toBe(1);
    expect(toPatient.filter((f) => f.event === 'chat-typing').at(-1)!.data).toEqual({ patientFileId: irene.id, senderKind: 'member' });
    ana.close();
    otto.close();
  });
});
