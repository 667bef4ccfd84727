import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { ChatAttachment, ChatCounters, ChatMessage, ChatMessagesPage, PatientDocument } from '@divan/core';
import { multipart } from '../../test/images';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { records } from '../../test/workspace-records';
import { connectedPatient, expectError, type PatientSession } from '../patient-accounts/patient-accounts.testkit';

let t: TestApp;
let ana: Therapist;
let bea: Therapist;
let wsA: string;
let wsB: string;
let fileA: string;
let fileA2: string;
let fileB: string;
let lucia: PatientSession;
let marco: PatientSession;
let pedro: PatientSession;

const P = (fileId: string) => `/api/v1/patient/files/${fileId}/chat`;
const W = (ws: string, fileId: string) => `/api/v1/workspaces/${ws}/chats/${fileId}`;

beforeAll(async () => {
  t = await createTestApp();
  ana = await therapist(t, 'ana@chatp.test', 'Ana');
  bea = await therapist(t, 'bea@chatp.test', 'Bea');
  wsA = (await createWorkspace(t, ana, 'Consulta Ana', 'freelance')).id;
  wsB = (await createWorkspace(t, bea, 'Consulta Bea', 'freelance')).id;
  [fileA, fileA2, fileB] = await Promise.all([
    records.patient(t, ana.accessToken, wsA),
    records.patient(t, ana.accessToken, wsA),
    records.patient(t, bea.accessToken, wsB),
  ]);
  lucia = await connectedPatient(t, ana.accessToken, wsA, fileA, 'lucia@chatp.test');
  // Another patient of the same workspace, and one of another workspace.
  marco = await connectedPatient(t, ana.accessToken, wsA, fileA2, 'marco@chatp.test');
  pedro = await connectedPatient(t, bea.accessToken, wsB, fileB, 'pedro@chatp.test');
}, 60_000);
afterAll(() => t?.close());

/** A file attached from the companion, as a browser sends it. */
const attach = (fileId: string, token: string, name: string, data: Buffer, type = 'text/plain') => {
  const { payload, headers } = multipart('file', name, type, data);
  return t.app.inject({
    method: 'POST',
    url: `${P(fileId)}/attachments`,
    payload,
    headers: { ...headers, authorization: `Bearer ${token}` },
  });
};

describe('the patient’s chat routes', () => {
  it('a connected patient sends, the therapist sees it and the counters move on both sides', async () => {
    const sent = await t.post(`${P(fileA)}/messages`, { body: '  Hola Ana, ¿podemos vernos el jueves?  ' }, { token: lucia.accessToken });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(json<ChatMessage>(sent)).toMatchObject({
      patientFileId: fileA,
      sender: { kind: 'patient', id: lucia.accountId },
      body: 'Hola Ana, ¿podemos vernos el jueves?',
      attachment: null,
      automatic: false,
    });
    const seen = json<ChatMessagesPage>(await t.get(`${W(wsA, fileA)}/messages`, { token: ana.accessToken }));
    expect(seen.items.map((m) => m.body)).toEqual(['Hola Ana, ¿podemos vernos el jueves?']);
    expect(json<ChatCounters>(await t.get(`/api/v1/workspaces/${wsA}/chats/counters`, { token: ana.accessToken }))).toEqual({
      [fileA]: { count: 1 },
    });

    const reply = json<ChatMessage>(await t.post(`${W(wsA, fileA)}/messages`, { body: 'Claro, a las 10:00' }, { token: ana.accessToken }));
    await t.post(`${W(wsA, fileA)}/messages`, { body: '¿Te va bien?' }, { token: ana.accessToken });
    expect(json<ChatCounters>(await t.get('/api/v1/patient/chat/counters', { token: lucia.accessToken }))).toEqual({
      [fileA]: { count: 2 },
    });
    const read = await t.post(`${P(fileA)}/read`, { upTo: reply.id }, { token: lucia.accessToken });
    expect([read.statusCode, read.json()]).toEqual([200, { patientFileId: fileA, count: 1 }]);
    expect(json<ChatCounters>(await t.get('/api/v1/patient/chat/counters', { token: lucia.accessToken }))).toEqual({
      [fileA]: { count: 1 },
    });
  });

  it('reads its file by keyset pages, newest first, and catches up after a cursor', async () => {
    const first = json<ChatMessagesPage>(await t.get(`${P(fileA)}/messages?limit=2`, { token: lucia.accessToken }));
    expect(first.items.map((m) => m.body)).toEqual(['¿Te va bien?', 'Claro, a las 10:00']);
    expect(first.items[0]!.sender).toMatchObject({ kind: 'member', id: ana.userId, name: 'Ana' });
    const rest = json<ChatMessagesPage>(await t.get(`${P(fileA)}/messages?limit=2&before=${first.next}`, { token: lucia.accessToken }));
    expect([rest.items.map((m) => m.body), rest.next]).toEqual([['Hola Ana, ¿podemos vernos el jueves?'], null]);
    const after = json<ChatMessagesPage>(await t.get(`${P(fileA)}/messages?after=${rest.items[0]!.cursor}`, { token: lucia.accessToken }));
    expect(after.items.map((m) => m.body)).toEqual(['Claro, a las 10:00', '¿Te va bien?']);
    expect((await t.get(`${P(fileA)}/messages?after=nope`, { token: lucia.accessToken })).statusCode).toBe(400);
    expect((await t.post(`${P(fileA)}/messages`, { body: '   ' }, { token: lucia.accessToken })).statusCode).toBe(400);
  });

  it('marks read only the therapist’s messages of the file', async () => {
    const own = json<ChatMessagesPage>(await t.get(`${P(fileA)}/messages`, { token: lucia.accessToken })).items.find(
      (m) => m.sender.kind === 'patient',
    )!;
    expectError(await t.post(`${P(fileA)}/read`, { upTo: own.id }, { token: lucia.accessToken }), 400, 'chat_message_not_sent_by_peer');
    expectError(await t.post(`${P(fileA)}/read`, { upTo: randomUUID() }, { token: lucia.accessToken }), 404, 'chat_message_not_found');
    // A message of another file is not one of this file's.
    const other = json<ChatMessage>(await t.post(`${W(wsA, fileA2)}/messages`, { body: 'Hola Marco' }, { token: ana.accessToken }));
    expectError(await t.post(`${P(fileA)}/read`, { upTo: other.id }, { token: lucia.accessToken }), 404, 'chat_message_not_found');
  });

  it('attaches only a document shared with the patient', async () => {
    const doc = await records.document(t, ana.accessToken, wsA, fileA);
    const attach = () => t.post(`${P(fileA)}/messages`, { body: 'Adjunto', attachmentDocumentId: doc }, { token: lucia.accessToken });
    expectError(await attach(), 404, 'document_not_found');
    const shared = await t.put(
      `/api/v1/workspaces/${wsA}/patients/${fileA}/documents/${doc}/sharing`,
      { shared: true },
      { token: ana.accessToken },
    );
    expect(shared.statusCode, shared.body).toBe(200);
    const res = await attach();
    expect(res.statusCode, res.body).toBe(201);
    expect(json<ChatMessage>(res).attachment).toMatchObject({ documentId: doc });
  });

  it('a patient of another file, of the same workspace or another, gets 404 for everything', async () => {
    const target = json<ChatMessagesPage>(await t.get(`${P(fileA)}/messages`, { token: lucia.accessToken })).items.find(
      (m) => m.sender.kind === 'member',
    )!;
    for (const who of [marco, pedro]) {
      expectError(await t.get(`${P(fileA)}/messages`, { token: who.accessToken }), 404, 'patient_file_not_found');
      expectError(await t.post(`${P(fileA)}/messages`, { body: 'Intruso' }, { token: who.accessToken }), 404, 'patient_file_not_found');
      expectError(await t.post(`${P(fileA)}/read`, { upTo: target.id }, { token: who.accessToken }), 404, 'patient_file_not_found');
      expect(Object.keys(json<ChatCounters>(await t.get('/api/v1/patient/chat/counters', { token: who.accessToken })))).not.toContain(
        fileA,
      );
    }
    expectError(await t.get(`${P(randomUUID())}/messages`, { token: lucia.accessToken }), 404, 'patient_file_not_found');
    expect(
      json<ChatMessagesPage>(await t.get(`${W(wsA, fileA)}/messages?limit=100`, { token: ana.accessToken })).items.map((m) => m.body),
    ).not.toContain('Intruso');
  });

  it('refuses a therapist’s token and an anonymous caller with 401', async () => {
    const calls = [
      () => ['GET', `${P(fileA)}/messages`],
      () => ['POST', `${P(fileA)}/messages`],
      () => ['POST', `${P(fileA)}/read`],
      () => ['GET', '/api/v1/patient/chat/counters'],
    ] as const;
    for (const c of calls) {
      const [method, url] = c();
      for (const headers of [{ authorization: `Bearer ${ana.accessToken}` }, {}]) {
        const res = await t.app.inject({
          method,
          url,
          headers,
          ...(method === 'POST' ? { payload: { body: 'x', upTo: randomUUID() } } : {}),
        });
        expectError(res, 401, 'invalid_access_token');
      }
    }
  });

  it('a deleted file (kept blocked for the legal period) is no longer reachable', async () => {
    expect((await t.get(`${P(fileA2)}/messages`, { token: marco.accessToken })).statusCode).toBe(200);
    expect(json<ChatCounters>(await t.get('/api/v1/patient/chat/counters', { token: marco.accessToken }))).toEqual({
      [fileA2]: { count: 1 },
    });
    const del = await t.del(`/api/v1/workspaces/${wsA}/patients/${fileA2}`, { token: ana.accessToken });
    expect(del.statusCode, del.body).toBeLessThan(300);
    expectError(await t.get(`${P(fileA2)}/messages`, { token: marco.accessToken }), 404, 'patient_file_not_found');
    expectError(await t.post(`${P(fileA2)}/messages`, { body: 'Hola' }, { token: marco.accessToken }), 404, 'patient_file_not_found');
    expect(json<ChatCounters>(await t.get('/api/v1/patient/chat/counters', { token: marco.accessToken }))).toEqual({});
  });
});

describe('the patient’s attachments', () => {
  it('a patient attaches a file: kept as a shared document of their file, sent, seen by the therapist; never on another file', async () => {
    const res = await attach(fileA, lucia.accessToken, 'informe-colegio.txt', Buffer.from('Informe del colegio.\n'));
    expect(res.statusCode, res.body).toBe(201);
    const att = json<ChatAttachment>(res);
    expect(att).toMatchObject({ name: 'informe-colegio.txt', contentType: 'text/plain; charset=utf-8', size: 21 });
    const sent = await t.post(
      `${P(fileA)}/messages`,
      { body: 'Te mando el informe', attachmentDocumentId: att.documentId },
      { token: lucia.accessToken },
    );
    expect([sent.statusCode, json<ChatMessage>(sent).attachment]).toEqual([
      201,
      { documentId: att.documentId, name: 'informe-colegio.txt' },
    ]);
    // The therapist finds it among the file's documents, shared, uploaded by no member.
    const docs = json<PatientDocument[]>(await t.get(`/api/v1/workspaces/${wsA}/patients/${fileA}/documents`, { token: ana.accessToken }));
    expect(docs.find((d) => d.id === att.documentId)).toMatchObject({ name: 'informe-colegio.txt', shared: true, uploadedBy: null });
    const bytes = await t.get(`/api/v1/workspaces/${wsA}/patients/${fileA}/documents/${att.documentId}/download`, {
      token: ana.accessToken,
    });
    expect([bytes.statusCode, bytes.body]).toEqual([200, 'Informe del colegio.\n']);

    // Not on a file that is not theirs; not a type the documents refuse; nothing kept of either.
    expectError(await attach(fileA2, lucia.accessToken, 'x.txt', Buffer.from('x')), 404, 'patient_file_not_found');
    expectError(await attach(fileB, lucia.accessToken, 'x.txt', Buffer.from('x')), 404, 'patient_file_not_found');
    const refused = await attach(
      fileA,
      lucia.accessToken,
      'programa.exe',
      Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03]),
      'application/octet-stream',
    );
    expect(refused.statusCode).toBe(415);
    expect(
      json<PatientDocument[]>(await t.get(`/api/v1/workspaces/${wsA}/patients/${fileA}/documents`, { token: ana.accessToken })),
    ).toHaveLength(docs.length);
  });
});
