import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { errorMessage } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { withWorkspace, type Therapist } from '../../test/workspace-fixtures';
import { multipart, png } from '../../test/images';
import { localDiskStorage, StoredFileMissing } from './storage';
import { readAll } from './encrypted-files';

/**
 * A file whose row exists but whose bytes are not in storage (a process that wrote them into a DATA_DIR
 * of its own, a volume lost) is a Spanish 410 `{code, message}` and one error line naming the storage
 * key, on every download route — never a 500 with a bare ENOENT (issue 24).
 */
let t: TestApp;
let owner: Therapist;
let W: string;
let P: string;
const logs: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ logLevel: 'error' }, { logger: true, logStream: { write: (line: string) => logs.push(line) } });
  const set = await withWorkspace(t, 'Consulta Perdida', {
    owner: { email: 'perdido@divan.test', firstName: 'Perdido' },
    patient: { firstName: 'Sara' },
  });
  owner = set.owner;
  W = `/api/v1/workspaces/${set.ws.id}`;
  P = `${W}/patients/${set.patientId}`;
}, 60_000);
afterAll(() => t?.close());

const upload = async (method: 'POST' | 'PUT', url: string, name: string, type: string, data: Buffer) => {
  const { payload, headers } = multipart('file', name, type, data);
  const res = await t.app.inject({ method, url, payload, headers: { ...headers, authorization: `Bearer ${owner.accessToken}` } });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return json<{ id: string; pictureUrl: string }>(res);
};
const removeStored = (key: string) => rmSync(join(t.config.dataDir, 'files', key));
const missingLogged = (key: string) =>
  logs.some((line) => (JSON.parse(line) as { level: number; storageKey?: string; msg: string }).level === 50 && line.includes(key));
const gone = { code: 'stored_file_missing', message: errorMessage('stored_file_missing') };

describe('a stored file gone from storage', () => {
  it('a document download is a Spanish 410 and an error line with its storage key', async () => {
    const doc = await upload('POST', `${P}/documents`, 'nota.txt', 'text/plain', Buffer.from('Nota de la sesión'));
    const [row] = await t.rows<{ storage_key: string }>(sql`select storage_key from patient_documents where id = ${doc.id}`);
    removeStored(row!.storage_key);
    const res = await t.get(`${P}/documents/${doc.id}/download`, { token: owner.accessToken });
    expect({ status: res.statusCode, body: json(res) }).toEqual({ status: 410, body: gone });
    expect(missingLogged(row!.storage_key)).toBe(true);
  });

  it('a public picture is a Spanish 410 and an error line with its storage key', async () => {
    const me = await upload('PUT', '/api/v1/me/picture', 'yo.png', 'image/png', png(8, 8));
    const id = me.pictureUrl.split('/').pop()!;
    const [row] = await t.rows<{ storage_key: string }>(sql`select storage_key from files where id = ${id}`);
    removeStored(row!.storage_key);
    const res = await t.get(`/api/v1/files/${id}`);
    expect({ status: res.statusCode, body: json(res) }).toEqual({ status: 410, body: gone });
    expect(missingLogged(row!.storage_key)).toBe(true);
  });
});

describe('the storage', () => {
  const root = mkdtempSync(join(tmpdir(), 'divan-storage-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('says StoredFileMissing, with the key, for a key without bytes: on a read, a range and a size', async () => {
    const storage = localDiskStorage(root);
    const key = 'documents/ws/ab/nada';
    await expect(readAll(storage.get(key))).rejects.toEqual(new StoredFileMissing(key));
    await expect(readAll(storage.getRange(key, 0, 10))).rejects.toMatchObject({
      storageKey: key,
      code: 'stored_file_missing',
      statusCode: 410,
    });
    await expect(storage.size(key)).rejects.toMatchObject({ storageKey: key });
    await storage.put(key, Buffer.from('hola'));
    expect((await readAll(storage.get(key))).toString()).toBe('hola');
  });
});
