import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { ChatConversation, ChatCounters, ChatMessage, ChatMessagesPage, Patient, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { addMember, createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import type { ChatActor } from './chat.types';

let t: TestApp;
let owner: Therapist;
let assigned: Therapist;
let other: Therapist;
let reception: Therapist;
let ws: Workspace;
let irene: Patient;
let C: string;
const account = randomUUID();
const patient: ChatActor = { kind: 'patient', patientAccountId: account };
const codeOf = (res: { json(): unknown }) => (res.json() as { code: string }).code;

beforeAll(async () => {
  t = await createTestApp();
  [owner, assigned, other, reception] = await Promise.all([
    therapist(t, 'dir@clinica.test', 'Dora'),
    therapist(t, 'ana@clinica.test', 'Ana'),
    therapist(t, 'otro@clinica.test', 'Otto'),
    therapist(t, 'rec@clinica.test', 'Rosa'),
  ]);
  ws = await createWorkspace(t, owner, 'Clínica Sol', 'clinic');
  const role = (name: string) => [ws.roles.find((r) => r.name === name)!.id];
  await addMember(t, owner, ws.id, assigned, role('Terapeuta'));
  await addMember(t, owner, ws.id, other, role('Terapeuta'));
  await addMember(t, owner, ws.id, reception, role('Recepción'));
  irene = json<Patient>(
    await t.post(
      `/api/v1/workspaces/${ws.id}/patients`,
      { firstName: 'Irene', lastName: 'Campos', email: 'irene@correo.test', assignedTherapistId: assigned.userId },
      { token: owner.accessToken },
    ),
  );
  C = `/api/v1/workspaces/${ws.id}/chats`;
  // The patients' accounts module links itself like this: the account is connected to Irene's file.
  t.app.services.linkChatPatients({
    fileOf: async (acc, fileId) => (acc === account && fileId === irene.id ? { workspaceId: ws.id } : null),
    accountsOf: async (fileId) => (fileId === irene.id ? [account] : []),
    filesOf: async (acc) => (acc === account ? [irene.id] : []),
  });
});
afterAll(() => t?.close());

const send = (token: string, body: string, fileId = irene.id) => t.post(`${C}/${fileId}/messages`, { body }, { token });

describe('chat, members side', () => {
  it('stores a message encrypted and returns it to who reads the file', async () => {
    const res = await send(assigned.accessToken, 'Hola Irene, ¿cómo va la semana?');
    expect(res.statusCode, res.body).toBe(201);
    const m = json<ChatMessage>(res);
    expect(m).toMatchObject({
      patientFileId: irene.id,
      sender: { kind: 'member', id: assigned.userId, name: 'Ana' },
      body: 'Hola Irene, ¿cómo va la semana?',
      attachment: null,
    });
    const dump = JSON.stringify(await t.rows(sql`select * from chat_messages`));
    expect(dump).not.toContain('semana');
    const page = json<ChatMessagesPage>(await t.get(`${C}/${irene.id}/messages`, { token: owner.accessToken }));
    expect(page.items.map((i) => i.body)).toEqual(['Hola Irene, ¿cómo va la semana?']);
  });

  it('follows the patient access: the assigned therapist and the administrator, not another clinic therapist nor Recepción', async () => {
    expect((await t.get(`${C}/${irene.id}/messages`, { token: assigned.accessToken })).statusCode).toBe(200);
    expect(codeOf(await t.get(`${C}/${irene.id}/messages`, { token: other.accessToken }))).toBe('patient_not_found');
    expect(codeOf(await send(other.accessToken, 'hola'))).toBe('patient_not_found');
    // Recepción is a member without the clinical permission: refused at the route.
    for (const path of [C, `${C}/counters`, `${C}/${irene.id}/messages`])
      expect(codeOf(await t.get(path, { token: reception.accessToken })), path).toBe('access_denied');
    expect(codeOf(await send(reception.accessToken, 'hola'))).toBe('access_denied');
    expect(json<{ items: unknown[] }>(await t.get(`${C}?tab=read`, { token: other.accessToken })).items).toEqual([]);
  });

  it('counts the patient messages as unread per file, and marks read only the peer’s messages', async () => {
    const chat = t.app.services.chat;
    const sent = [];
    for (const body of ['Bien', 'Un poco de ansiedad', '¿Podemos hablar el jueves?'])
      sent.push(await chat.sendAsPatient(patient, irene.id, { body }));
    expect(json<ChatCounters>(await t.get(`${C}/counters`, { token: assigned.accessToken }))).toEqual({ [irene.id]: { count: 3 } });
    const unread = json<{ items: ChatConversation[] }>(await t.get(`${C}?tab=unread`, { token: assigned.accessToken }));
    expect(unread.items).toMatchObject([
      {
        patientFileId: irene.id,
        patientName: 'Irene Campos',
        unread: 3,
        lastMessage: { senderKind: 'patient', body: '¿Podemos hablar el jueves?' },
      },
    ]);
    const mine = json<ChatMessagesPage>(await t.get(`${C}/${irene.id}/messages?limit=100`, { token: assigned.accessToken })).items.find(
      (m) => m.sender.kind === 'member',
    )!;
    expect(codeOf(await t.post(`${C}/${irene.id}/read`, { upTo: mine.id }, { token: assigned.accessToken }))).toBe(
      'chat_message_not_sent_by_peer',
    );
    expect(codeOf(await t.post(`${C}/${irene.id}/read`, { upTo: randomUUID() }, { token: assigned.accessToken }))).toBe(
      'chat_message_not_found',
    );
    const read = await t.post(`${C}/${irene.id}/read`, { upTo: sent[1]!.id }, { token: owner.accessToken });
    expect(read.json()).toEqual({ patientFileId: irene.id, count: 1 });
    // One cursor for the members' side: what the administrator read is read for the assigned therapist too.
    expect(json<ChatCounters>(await t.get(`${C}/counters`, { token: assigned.accessToken }))).toEqual({ [irene.id]: { count: 1 } });
    // The cursor never goes back.
    await t.post(`${C}/${irene.id}/read`, { upTo: sent[0]!.id }, { token: owner.accessToken });
    expect(json<ChatCounters>(await t.get(`${C}/counters`, { token: owner.accessToken }))).toEqual({ [irene.id]: { count: 1 } });
    await t.post(`${C}/${irene.id}/read`, { upTo: sent[2]!.id }, { token: owner.accessToken });
    expect(json<ChatCounters>(await t.get(`${C}/counters`, { token: owner.accessToken }))).toEqual({});
    expect(json<{ items: unknown[] }>(await t.get(`${C}?tab=unread`, { token: assigned.accessToken })).items).toEqual([]);
    expect(json<{ items: ChatConversation[] }>(await t.get(`${C}?tab=read&q=campos`, { token: assigned.accessToken })).items).toHaveLength(
      1,
    );
    expect(json<{ items: unknown[] }>(await t.get(`${C}?tab=read&q=zzz`, { token: assigned.accessToken })).items).toEqual([]);
  });

  it('pages the history by keyset, newest first, and catches up after a cursor', async () => {
    const first = json<ChatMessagesPage>(await t.get(`${C}/${irene.id}/messages?limit=2`, { token: owner.accessToken }));
    expect(first.items.map((m) => m.body)).toEqual(['¿Podemos hablar el jueves?', 'Un poco de ansiedad']);
    const second = json<ChatMessagesPage>(
      await t.get(`${C}/${irene.id}/messages?limit=2&before=${first.next}`, { token: owner.accessToken }),
    );
    expect(second.items.map((m) => m.body)).toEqual(['Bien', 'Hola Irene, ¿cómo va la semana?']);
    expect(second.next).toBeNull();
    const after = json<ChatMessagesPage>(
      await t.get(`${C}/${irene.id}/messages?after=${second.items[1]!.cursor}`, { token: owner.accessToken }),
    );
    expect(after.items.map((m) => m.body)).toEqual(['Bien', 'Un poco de ansiedad', '¿Podemos hablar el jueves?']);
    expect((await t.get(`${C}/${irene.id}/messages?after=nope`, { token: owner.accessToken })).statusCode).toBe(400);
  });

  it('lists a paused or discharged patient under inactive', async () => {
    const r = await t.put(`/api/v1/workspaces/${ws.id}/patients/${irene.id}/treatment`, { status: 'paused' }, { token: owner.accessToken });
    expect(r.statusCode, r.body).toBe(200);
    expect(json<{ items: ChatConversation[] }>(await t.get(`${C}?tab=inactive`, { token: owner.accessToken })).items).toMatchObject([
      { patientFileId: irene.id, treatmentStatus: 'paused' },
    ]);
    expect(json<{ items: unknown[] }>(await t.get(`${C}?tab=read`, { token: owner.accessToken })).items).toEqual([]);
    await t.put(`/api/v1/workspaces/${ws.id}/patients/${irene.id}/treatment`, { status: 'active' }, { token: owner.accessToken });
  });
});

describe('chat, a deleted patient', () => {
  it('leaves the lists and the counters, whether erased or kept blocked for the legal period', async () => {
    const bruno = json<Patient>(
      await t.post(
        `/api/v1/workspaces/${ws.id}/patients`,
        { firstName: 'Bruno', lastName: 'Díaz', assignedTherapistId: assigned.userId, treatment: { startDate: '2026-01-10' } },
        { token: owner.accessToken },
      ),
    );
    await send(assigned.accessToken, 'Hola Bruno', bruno.id);
    const ended = await t.put(
      `/api/v1/workspaces/${ws.id}/patients/${bruno.id}/treatment`,
      { status: 'inactive', endDate: '2026-11-20', endingReason: 'completed' },
      { token: owner.accessToken },
    );
    expect(ended.statusCode, ended.body).toBe(200);
    const listed = async () =>
      json<{ items: ChatConversation[] }>(await t.get(`${C}?tab=inactive`, { token: owner.accessToken })).items.map((i) => i.patientFileId);
    expect(await listed()).toContain(bruno.id);
    expect((await t.del(`/api/v1/workspaces/${ws.id}/patients/${bruno.id}`, { token: owner.accessToken })).statusCode).toBeLessThan(300);
    expect(await listed()).not.toContain(bruno.id);
    expect(Object.keys(json<ChatCounters>(await t.get(`${C}/counters`, { token: owner.accessToken })))).not.toContain(bruno.id);
  });
});

describe('chat, patient side (service)', () => {
  it('reads, marks read and counts for the connected account only', async () => {
    const chat = t.app.services.chat;
    expect(await chat.patientCounters(account, [irene.id])).toEqual({ [irene.id]: { count: 1 } });
    const page = await chat.listForPatient(patient, irene.id, { limit: 10 });
    const fromTherapist = page.items.find((m) => m.sender.kind === 'member')!;
    const own = page.items.find((m) => m.sender.kind === 'patient')!;
    await expect(chat.markReadAsPatient(patient, irene.id, own.id)).rejects.toMatchObject({ code: 'chat_message_not_sent_by_peer' });
    expect(await chat.markReadAsPatient(patient, irene.id, fromTherapist.id)).toEqual({ patientFileId: irene.id, count: 0 });
    const stranger: ChatActor = { kind: 'patient', patientAccountId: randomUUID() };
    await expect(chat.listForPatient(stranger, irene.id)).rejects.toMatchObject({ code: 'patient_not_found' });
    await expect(chat.sendAsPatient(stranger, irene.id, { body: 'hola' })).rejects.toMatchObject({ code: 'patient_not_found' });
    expect(await chat.patientCounters(stranger.patientAccountId, [irene.id])).toEqual({});
  });

  it('lets the patient attach only a document shared with them', async () => {
    const docs = t.app.services.documents;
    const id = await t.app.services.database.db.transaction((tx) =>
      docs.addGenerated(tx, {
        workspaceId: ws.id,
        patientId: irene.id,
        name: 'Pautas de sueño.pdf',
        contentType: 'application/pdf',
        bytes: Buffer.from('%PDF-1.4'),
        tags: [],
        by: owner.userId,
      }),
    );
    await expect(t.app.services.chat.sendAsPatient(patient, irene.id, { body: 'Mira', attachmentDocumentId: id })).rejects.toMatchObject({
      code: 'document_not_found',
    });
    const res = await t.post(
      `${C}/${irene.id}/messages`,
      { body: 'Te dejo las pautas', attachmentDocumentId: id },
      { token: assigned.accessToken },
    );
    expect(json<ChatMessage>(res).attachment).toEqual({ documentId: id, name: 'Pautas de sueño.pdf' });
    // Sent by the therapist, the document is now shared: the patient may open it, and send it back.
    expect((await t.app.services.documents.attachment(irene.id, id))?.shared).toBe(true);
    await expect(t.app.services.chat.sendAsPatient(patient, irene.id, { body: 'Leídas', attachmentDocumentId: id })).resolves.toMatchObject(
      { attachment: { documentId: id } },
    );
  });
});

describe('chat, unread mail', () => {
  it('mails the recipient side once per conversation and stretch of unread messages, never per message', async () => {
    const chat = t.app.services.chat;
    await chat.sendAsPatient(patient, irene.id, { body: 'Uno' });
    await chat.sendAsPatient(patient, irene.id, { body: 'Dos' });
    const mails = async () =>
      (await t.rows<{ n: number }>(sql`select count(*)::int as n from mail_outbox where purpose = 'chat_unread'`))[0]!.n;
    const job = t.app.services.chatUnreadMail;
    expect(await job.sendDue(new Date())).toBe(0);
    const later = new Date(Date.now() + 16 * 60_000);
    // The therapist's side (Ana, assigned) and the patient's side (the attachment above, unread).
    expect(await job.sendDue(later)).toBe(2);
    expect(await job.sendDue(later)).toBe(0);
    await chat.sendAsPatient(patient, irene.id, { body: 'Tres' });
    expect(await job.sendDue(new Date(Date.now() + 32 * 60_000))).toBe(0);
    expect(await mails()).toBe(2);
  });
});
