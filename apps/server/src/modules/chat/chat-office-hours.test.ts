import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { ChatMessagesPage, ChatOfficeHours, Patient, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import type { ChatActor } from './chat.types';

let t: TestApp;
let eva: Therapist;
let ws: Workspace;
let irene: Patient;
let C: string;
const account = randomUUID();
const patient: ChatActor = { kind: 'patient', patientAccountId: account };
const H = '/api/v1/me/chat-office-hours';
const allWeek = (start: string, end: string) => [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start, end }));

beforeAll(async () => {
  t = await createTestApp();
  eva = await therapist(t, 'eva@horario.test', 'Eva');
  ws = await createWorkspace(t, eva, 'Consulta Eva', 'freelance');
  irene = json<Patient>(
    await t.post(
      `/api/v1/workspaces/${ws.id}/patients`,
      { firstName: 'Irene', lastName: 'Campos', assignedTherapistId: eva.userId },
      { token: eva.accessToken },
    ),
  );
  C = `/api/v1/workspaces/${ws.id}/chats/${irene.id}`;
  t.app.services.linkChatPatients({
    fileOf: async (acc, fileId) => (acc === account && fileId === irene.id ? { workspaceId: ws.id } : null),
    accountsOf: async () => [account],
    filesOf: async () => [irene.id],
  });
});
afterAll(() => t?.close());

const automatic = async () =>
  json<ChatMessagesPage>(await t.get(`${C}/messages?limit=100`, { token: eva.accessToken })).items.filter((m) => m.automatic);

describe('office hours and the automatic reply', () => {
  it('starts disabled with a default reply, and refuses an hour that ends before it starts', async () => {
    const h = json<ChatOfficeHours>(await t.get(H, { token: eva.accessToken }));
    expect(h).toMatchObject({ enabled: false, timeZone: 'Europe/Madrid', slots: [] });
    expect(h.autoReply).toMatch(/fuera de mi horario/);
    expect((await t.put(H, { ...h, slots: [{ weekday: 1, start: '14:00', end: '09:00' }] }, { token: eva.accessToken })).statusCode).toBe(
      400,
    );
  });

  it('does not answer inside the office hours', async () => {
    const res = await t.put(
      H,
      { enabled: true, timeZone: 'Europe/Madrid', slots: allWeek('00:00', '23:59'), autoReply: 'Vuelvo enseguida.' },
      { token: eva.accessToken },
    );
    expect(res.statusCode, res.body).toBe(200);
    // 23:59 to midnight is outside: the test avoids that minute.
    const now = new Date();
    if (now.getUTCHours() === 22 || now.getUTCHours() === 23) return;
    await t.app.services.chat.sendAsPatient(patient, irene.id, { body: 'Hola' });
    expect(await automatic()).toEqual([]);
  });

  it('answers outside them once per stretch of unread messages, in the therapist’s name', async () => {
    await t.put(
      H,
      { enabled: true, timeZone: 'Europe/Madrid', slots: [], autoReply: 'Estoy fuera de mi horario; te respondo mañana.' },
      { token: eva.accessToken },
    );
    const chat = t.app.services.chat;
    await chat.sendAsPatient(patient, irene.id, { body: '¿Estás?' });
    await chat.sendAsPatient(patient, irene.id, { body: 'Te escribo otra vez' });
    const [reply] = await automatic();
    expect(await automatic()).toHaveLength(1);
    expect(reply).toMatchObject({
      automatic: true,
      body: 'Estoy fuera de mi horario; te respondo mañana.',
      sender: { kind: 'member', id: eva.userId, name: 'Eva' },
    });
    // Eva reads: a new stretch, a new reply.
    const last = (await chat.listForPatient(patient, irene.id)).items.find((m) => m.sender.kind === 'patient')!;
    await t.post(`${C}/read`, { upTo: last.id }, { token: eva.accessToken });
    await chat.sendAsPatient(patient, irene.id, { body: 'Otra cosa' });
    expect(await automatic()).toHaveLength(2);
  });
});
