import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, Patient, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { authenticatedSocket, connectSocket } from '../../test/ws-client';
import { createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { connectedPatient, type PatientSession } from '../patient-accounts/patient-accounts.testkit';

let t: TestApp;
let base: string;
let owner: Therapist;
let ws: Workspace;
let irene: Patient;
let session: PatientSession;
let C: string;

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await therapist(t, 'eva@consulta.test', 'Eva');
  ws = await createWorkspace(t, owner, 'Consulta Eva', 'freelance');
  irene = json<Patient>(
    await t.post(
      `/api/v1/workspaces/${ws.id}/patients`,
      { firstName: 'Irene', lastName: 'Campos', email: 'irene@correo.test' },
      { token: owner.accessToken },
    ),
  );
  session = await connectedPatient(t, owner.accessToken, ws.id, irene.id, 'irene@correo.test');
  C = `/api/v1/workspaces/${ws.id}/chats`;
  // What the patients' accounts module gives the chat (here: the one connection made above).
  const mine = (acc: string, fileId: string) => acc === session.accountId && fileId === irene.id;
  t.app.services.linkChatPatients({
    fileOf: async (acc, fileId) => (mine(acc, fileId) ? { workspaceId: ws.id } : null),
    accountsOf: async (fileId) => (fileId === irene.id ? [session.accountId] : []),
    filesOf: async (acc) => (acc === session.accountId ? [irene.id] : []),
  });
});
afterAll(() => t?.close());

describe('the patient’s socket (realm patients)', () => {
  it('gets its counters at connection, the therapist’s messages live, and relays its typing to the therapist', async () => {
    await t.post(`${C}/${irene.id}/messages`, { body: 'Hola Irene' }, { token: owner.accessToken });
    const p = await authenticatedSocket(base, session.accessToken, 'patients');
    expect((await p.next('chat-notification-counters')).data).toEqual({ counters: { [irene.id]: { count: 1 } } });
    const eva = await authenticatedSocket(base, owner.accessToken);
    await eva.next('chat-notification-counters');

    const sent = json<ChatMessage>(
      await t.post(`${C}/${irene.id}/messages`, { body: '¿Qué tal la semana?' }, { token: owner.accessToken }),
    );
    expect((await p.next('chat-message')).data).toMatchObject({
      patientFileId: irene.id,
      message: { id: sent.id, sender: { kind: 'member', name: 'Eva' } },
    });
    expect((await p.next('chat-notification-counter')).data).toEqual({ patientFileId: irene.id, count: 2 });
    // Eva's other sockets hear her own message too.
    expect(((await eva.next('chat-message')).data as { message: ChatMessage }).message.id).toBe(sent.id);

    p.send('chat-typing', { patientFileId: irene.id });
    expect((await eva.next('chat-typing')).data).toEqual({ patientFileId: irene.id, senderKind: 'patient' });

    const answer = await t.app.services.chat.sendAsPatient({ kind: 'patient', patientAccountId: session.accountId }, irene.id, {
      body: 'Bien, gracias',
    });
    expect(((await eva.next('chat-message')).data as { message: ChatMessage }).message.id).toBe(answer.id);
    expect((await eva.next('chat-notification-counter')).data).toEqual({ patientFileId: irene.id, count: 1 });
    p.close();
    eva.close();
  });

  it('refuses a therapist’s token as a patient and the other way round', async () => {
    for (const [token, realm] of [
      [owner.accessToken, 'patients'],
      [session.accessToken, 'therapists'],
    ] as const) {
      const s = await connectSocket(base);
      s.send('authenticate', { token, realm });
      expect((await s.next('disconnect')).data).toEqual({ code: 'invalid_access_token' });
    }
  });
});
