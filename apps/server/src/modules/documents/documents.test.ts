import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Patient, PatientDocument, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { withWorkspace, type Therapist } from '../../test/workspace-fixtures';
import { multipart, png } from '../../test/images';
import { FILE_OVERHEAD_BYTES } from '../../platform/crypto/cipher';

let t: TestApp;
let owner: Therapist;
let ana: Therapist;
let rosa: Therapist;
let ws: Workspace;
let patientId: string;
let D: string;
const codeOf = (res: { json(): unknown }) => (res.json() as { code: string }).code;
const pdf = (text: string, pad = 0) =>
  Buffer.concat([Buffer.from(`%PDF-1.4\n% ${text}\n`), Buffer.alloc(pad, 0x20), Buffer.from('\n%%EOF\n')]);
const storedFiles = () => {
  const root = join(t.config.dataDir, 'files', 'documents');
  const walk = (dir: string): string[] =>
    existsSync(dir)
      ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
      : [];
  return walk(root);
};

/** Uploads as a browser does: optional fields first, then the file. */
async function upload(name: string, data: Buffer, opts: { token?: string; path?: string; tags?: string; type?: string } = {}) {
  const { payload, headers } = multipart('file', name, opts.type ?? 'application/octet-stream', data);
  const boundary = headers['content-type'].split('boundary=')[1]!;
  const fields =
    opts.tags !== undefined
      ? Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="tags"\r\n\r\n${opts.tags}\r\n`)
      : Buffer.alloc(0);
  return t.app.inject({
    method: 'POST',
    url: opts.path ?? D,
    payload: Buffer.concat([fields, payload]),
    headers: { ...headers, authorization: `Bearer ${opts.token ?? owner.accessToken}` },
  });
}

beforeAll(async () => {
  t = await createTestApp();
  ({
    owner,
    ws,
    patientId,
    members: { ana, rosa },
  } = await withWorkspace(t, 'Clínica Arce', {
    owner: { email: 'nuria@clinica.test', firstName: 'Nuria' },
    plan: { id: 'team', seats: 10 },
    members: {
      ana: { email: 'ana@clinica.test', firstName: 'Ana', role: 'Terapeuta' },
      rosa: { email: 'rosa@clinica.test', firstName: 'Rosa', role: 'Recepción' },
    },
    patient: { firstName: 'Tomás', lastName: 'Vidal' },
  }));
  D = `/api/v1/workspaces/${ws.id}/patients/${patientId}/documents`;
});
afterAll(() => t?.close());

describe('patient documents', () => {
  it('stores an upload encrypted and gives back the same bytes, name and type', async () => {
    const original = pdf('Informe de evolución: ansiedad generalizada', 2000);
    const res = await upload('Informe de evolución.pdf', original, { tags: 'Informe, Evolución' });
    expect(res.statusCode, res.body).toBe(201);
    const doc = json<PatientDocument>(res);
    expect(doc).toMatchObject({
      name: 'Informe de evolución.pdf',
      contentType: 'application/pdf',
      size: original.length,
      shared: false,
      uploadedBy: { id: owner.userId, name: 'Nuria' },
    });
    expect(doc.tags).toEqual(['Evolución', 'Informe']);

    // On disk: header (key id, iv) | ciphertext | tag, no clear text.
    const [file] = storedFiles();
    expect(statSync(file!).size).toBe(original.length + FILE_OVERHEAD_BYTES);
    const raw = readFileSync(file!);
    expect(raw.includes(Buffer.from('ansiedad'))).toBe(false);
    expect(raw.subarray(0, 5).toString()).not.toBe('%PDF-');

    const down = await t.get(`${D}/${doc.id}/download`, { token: owner.accessToken });
    expect(down.statusCode).toBe(200);
    expect(down.rawPayload.equals(original)).toBe(true);
    expect(down.headers['content-type']).toBe('application/pdf');
    expect(down.headers['content-disposition']).toBe(
      `attachment; filename="Informe de evolucion.pdf"; filename*=UTF-8''Informe%20de%20evoluci%C3%B3n.pdf`,
    );
    expect(
      (await t.get(`${D}/${doc.id}/download?disposition=inline`, { token: owner.accessToken })).headers['content-disposition'],
    ).toMatch(/^inline;/);
  });

  it('reads the type from the bytes, not the name', async () => {
    const picture = json<PatientDocument>(await upload('escaneo.pdf', png(4, 4)));
    expect(picture.contentType).toBe('image/png');
    const note = json<PatientDocument>(await upload('notas.txt', Buffer.from('Pautas de respiración: 4-7-8.\n')));
    expect(note.contentType).toBe('text/plain; charset=utf-8');
    const zip = Buffer.concat([Buffer.from('PK\u0003\u0004', 'latin1'), Buffer.alloc(200, 1)]);
    expect(json<PatientDocument>(await upload('plan.docx', zip)).contentType).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(json<PatientDocument>(await upload('cuestionario.xlsx', zip)).contentType).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const before = storedFiles().length;
    const refused = [
      await upload('programa.pdf', Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0]), Buffer.alloc(100)])),
      await upload('comprimido.zip', zip),
      // Valid text for the first kilobytes, then a byte that is not UTF-8: caught mid-stream.
      await upload('largo.txt', Buffer.concat([Buffer.alloc(100_000, 'a'), Buffer.from([0xff, 0xfe])])),
      await upload('vacio.txt', Buffer.alloc(0)),
    ];
    for (const res of refused) expect({ s: res.statusCode, c: codeOf(res) }).toEqual({ s: 415, c: 'invalid_type' });
    // The unread rest of a refused upload must not keep the connection busy.
    expect(refused[0]!.headers.connection).toBe('close');
    expect(storedFiles().length).toBe(before);
    expect(codeOf(await t.post(D, {}, { token: owner.accessToken }))).toBe('invalid_type');
  });

  it('refuses a file over the size limit with the limit in the message, leaving nothing stored', async () => {
    const before = storedFiles().length;
    const res = await upload('grande.pdf', pdf('grande', 20 * 1024 * 1024));
    expect(res.statusCode).toBe(413);
    expect(json(res)).toEqual({ code: 'document_too_large', message: 'El archivo supera el tamaño máximo de 20 MB.' });
    expect(storedFiles().length).toBe(before);
    const [row] = await t.rows<{ n: number }>(sql`select count(*)::int as n from patient_documents where name = 'grande.pdf'`);
    expect(row!.n).toBe(0);
  });

  it('renames, retags with the workspace’s shared tags and shares with the patient', async () => {
    const list = json<PatientDocument[]>(await t.get(D, { token: owner.accessToken }));
    const note = list.find((d) => d.name === 'notas.txt')!;
    const renamed = json<PatientDocument>(
      await t.patch(
        `${D}/${note.id}`,
        { name: 'Pautas de respiración.txt', tags: ['informe', 'Tareas', 'tareas ', 'EVOLUCIÓN'] },
        { token: owner.accessToken },
      ),
    );
    // "informe" is the existing "Informe" (accents too); "Tareas" and "tareas " are one new tag.
    expect(renamed).toMatchObject({ name: 'Pautas de respiración.txt', tags: ['Evolución', 'Informe', 'Tareas'] });
    const tags = json<{ name: string }[]>(await t.get(`/api/v1/workspaces/${ws.id}/document-tags?q=INF`, { token: owner.accessToken }));
    expect(tags.map((x) => x.name)).toEqual(['Informe']);
    const all = json<{ name: string }[]>(await t.get(`/api/v1/workspaces/${ws.id}/document-tags`, { token: ana.accessToken }));
    expect(all.map((x) => x.name)).toEqual(['Evolución', 'Informe', 'Tareas']);
    expect(json<PatientDocument>(await t.put(`${D}/${note.id}/sharing`, { shared: true }, { token: owner.accessToken })).shared).toBe(true);
    expect(json<PatientDocument>(await t.put(`${D}/${note.id}/sharing`, { shared: false }, { token: owner.accessToken })).shared).toBe(
      false,
    );
    const bad = await t.patch(`${D}/${note.id}`, { tags: ['x'.repeat(41)] }, { token: owner.accessToken });
    expect(codeOf(bad)).toBe('invalid_argument');
    expect(codeOf(await upload('a.txt', Buffer.from('hola'), { tags: '["ok", ""]' }))).toBe('invalid_argument');
  });

  it('two members adding the same new tag at once share one tag', async () => {
    const [a, b] = json<PatientDocument[]>(await t.get(D, { token: owner.accessToken }));
    const results = await Promise.all([a!, b!].map((d) => t.patch(`${D}/${d.id}`, { tags: ['Urgente'] }, { token: owner.accessToken })));
    expect(results.map((r) => json<PatientDocument>(r).tags)).toEqual([['Urgente'], ['Urgente']]);
    const [row] = await t.rows<{ n: number }>(sql`select count(*)::int as n from document_tags where name_key = 'urgente'`);
    expect(row!.n).toBe(1);
  });

  it('deleting a document hides it everywhere but keeps its row and encrypted bytes (retention), with an audit event', async () => {
    const list = json<PatientDocument[]>(await t.get(D, { token: owner.accessToken }));
    const countNow = async () =>
      json<Patient>(await t.get(`/api/v1/workspaces/${ws.id}/patients/${patientId}`, { token: owner.accessToken })).counts.documents;
    expect(await countNow()).toBe(list.length);
    const before = storedFiles().length;
    const doc = list[0]!;
    expect((await t.del(`${D}/${doc.id}`, { token: owner.accessToken })).statusCode).toBe(204);
    expect(json<PatientDocument[]>(await t.get(D, { token: owner.accessToken })).map((d) => d.id)).not.toContain(doc.id);
    expect(await countNow()).toBe(list.length - 1);
    expect(codeOf(await t.get(`${D}/${doc.id}/download`, { token: owner.accessToken }))).toBe('document_not_found');
    expect(codeOf(await t.patch(`${D}/${doc.id}`, { name: 'otro' }, { token: owner.accessToken }))).toBe('document_not_found');
    expect(codeOf(await t.del(`${D}/${doc.id}`, { token: owner.accessToken }))).toBe('document_not_found');
    // Part of the clinical record: kept, encrypted, until the patient's retention ends.
    expect(storedFiles().length).toBe(before);
    const [row] = await t.rows<{ deleted_by: string | null }>(sql`select deleted_by from patient_documents where id = ${doc.id}`);
    expect(row?.deleted_by).toBe(owner.userId);
    const events = json<{ action: string; target: string; details: Record<string, unknown> }[]>(
      await t.get(`/api/v1/workspaces/${ws.id}/audit-events`, { token: owner.accessToken }),
    );
    expect(events.find((e) => e.action === 'document.deleted' && e.target === doc.id)).toMatchObject({
      details: { name: doc.name, patientId },
    });
  });

  it('checks every record: a clinic therapist sees only assigned patients, reception no documents', async () => {
    expect(codeOf(await t.get(D, { token: ana.accessToken }))).toBe('patient_not_found');
    expect(codeOf(await upload('x.txt', Buffer.from('x'), { token: ana.accessToken }))).toBe('patient_not_found');
    expect(codeOf(await t.get(D, { token: rosa.accessToken }))).toBe('access_denied');
    const hers = json<Patient>(await t.post(`/api/v1/workspaces/${ws.id}/patients`, { firstName: 'Lidia' }, { token: ana.accessToken }));
    const path = `/api/v1/workspaces/${ws.id}/patients/${hers.id}/documents`;
    expect((await upload('x.txt', Buffer.from('de Ana'), { token: ana.accessToken, path })).statusCode).toBe(201);
    expect(json<PatientDocument[]>(await t.get(path, { token: ana.accessToken }))).toHaveLength(1);
    // Another patient's document id under this patient is not found.
    const other = json<PatientDocument[]>(await t.get(D, { token: owner.accessToken }))[0]!;
    expect(codeOf(await t.get(`${path}/${other.id}/download`, { token: owner.accessToken }))).toBe('document_not_found');
  });

  it('writes lists and downloads to the clinical access log', async () => {
    const log = json<{ action: string; patient: { id: string } }[]>(
      await t.get(`/api/v1/workspaces/${ws.id}/clinical-access-log?patientId=${patientId}&limit=200`, { token: owner.accessToken }),
    );
    const actions = log.map((l) => l.action);
    expect(actions).toContain('documents.read');
    expect(actions.filter((a) => a === 'document.download')).toHaveLength(2);
  });

  it('erasing a patient past retention erases its documents’ bytes', async () => {
    const p = json<Patient>(await t.post(`/api/v1/workspaces/${ws.id}/patients`, { firstName: 'Antiguo' }, { token: owner.accessToken }));
    const path = `/api/v1/workspaces/${ws.id}/patients/${p.id}/documents`;
    await upload('viejo.pdf', pdf('viejo'), { path });
    // A deleted one too: its kept bytes go with the patient.
    const gone = json<PatientDocument>(await upload('borrado.pdf', pdf('borrado'), { path }));
    expect((await t.del(`${path}/${gone.id}`, { token: owner.accessToken })).statusCode).toBe(204);
    const before = storedFiles().length;
    await t.rows(
      sql`update patients set last_activity_at = now() - interval '6 years', treatment_end_date = (now() - interval '6 years')::date where id = ${p.id}`,
    );
    expect(json(await t.del(`/api/v1/workspaces/${ws.id}/patients/${p.id}`, { token: owner.accessToken }))).toMatchObject({
      result: 'deleted',
    });
    expect(await t.rows(sql`select id from patient_documents where patient_id = ${p.id}`)).toEqual([]);
    // The bytes go by a job written in the erasure's transaction, once it has committed.
    for (let i = 0; i < 100 && storedFiles().length !== before - 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(storedFiles().length).toBe(before - 2);
  });
});
