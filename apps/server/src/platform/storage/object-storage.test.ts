import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createSecondApp, createTestApp, json, type TestApp } from '../../test/test-app';
import { seedClinicalRecords } from '../../test/clinical-records';
import { legacyFile } from '../../test/legacy-cipher';
import { multipart } from '../../test/images';
import { startS3rver } from '../../test/s3rver';
import { writeKeyFile } from '../crypto/master-key';
import { rotateClinicalKey } from '../crypto/rotate';
import { readAll } from './encrypted-files';
import { INSTALLATION_MARKER } from './installation';

/**
 * The app on an S3 bucket (S3_BUCKET; s3rver on loopback): a patient document uploaded and downloaded
 * through the API, bytes equal and encrypted in the bucket, nothing in DATA_DIR/files; the installation
 * marker in the bucket; the key rotation re-encrypting an old file in the bucket (issue 31).
 */
const keyDir = mkdtempSync(join(tmpdir(), 'divan-s3-app-'));
let s3: Awaited<ReturnType<typeof startS3rver>>;
let t: TestApp;
let seed: Awaited<ReturnType<typeof seedClinicalRecords>>;

beforeAll(async () => {
  s3 = await startS3rver('divan-app');
  const keyFile = join(keyDir, 'clinical-key');
  writeKeyFile(keyFile, randomBytes(32), []);
  t = await createTestApp({ s3: s3.config, clinicalKey: { file: keyFile } });
  seed = await seedClinicalRecords(t);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await s3?.close();
  rmSync(keyDir, { recursive: true, force: true });
});

const bucketKeys = async () => {
  const keys: string[] = [];
  for await (const o of t.app.services.storage.list()) keys.push(o.key);
  return keys;
};

describe('the app with S3_BUCKET', () => {
  it('a patient document goes to the bucket, encrypted, and comes back whole; nothing is written to DATA_DIR/files', async () => {
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(300_000), Buffer.from('\n%%EOF\n')]);
    const { payload, headers } = multipart('file', 'informe.pdf', 'application/pdf', bytes);
    const P = `/api/v1/workspaces/${seed.workspaceId}/patients/${seed.patientId}/documents`;
    const up = await t.app.inject({
      method: 'POST',
      url: P,
      payload,
      headers: { ...headers, authorization: `Bearer ${seed.owner.accessToken}` },
    });
    expect(up.statusCode).toBe(201);
    const doc = json<{ id: string }>(up);
    const down = await t.app.inject({
      method: 'GET',
      url: `${P}/${doc.id}/download`,
      headers: { authorization: `Bearer ${seed.owner.accessToken}` },
    });
    expect(down.statusCode).toBe(200);
    expect(down.rawPayload.equals(bytes)).toBe(true);

    const [row] = await t.rows<{ storage_key: string }>(sql`select storage_key from patient_documents where id = ${doc.id}`);
    expect(await bucketKeys()).toContain(row!.storage_key);
    const stored = await readAll(t.app.services.storage.get(row!.storage_key));
    expect(stored.subarray(0, 8).toString()).toBe('DIVANv2\n');
    expect(stored.includes(bytes.subarray(9, 1000))).toBe(false);
    expect(existsSync(join(t.config.dataDir, 'files'))).toBe(false);
  });

  it('keeps the installation marker in the bucket; on PostgreSQL a process with another bucket refuses to start', async () => {
    const [row] = await t.rows<{ id: string }>(sql`select id from installation`);
    expect((await readAll(t.app.services.storage.get(INSTALLATION_MARKER))).toString().trim()).toBe(row!.id);
    if (t.database !== 'postgres') return;
    await expect(createSecondApp(t, { s3: { ...s3.config, bucket: 'otro-cubo' } })).rejects.toThrow(
      /^S3_BUCKET s3:\/\/otro-cubo .* is not the storage of the other Diván processes on this database: it has no installation-id/,
    );
  });

  it('rotate-clinical-key re-encrypts a file written before envelope encryption, in the bucket', async () => {
    const [doc] = await t.rows<{ storage_key: string }>(sql`select storage_key from patient_documents where id = ${seed.documentId}`);
    await t.app.services.storage.put(doc!.storage_key, legacyFile(t.config.appSecret, seed.workspaceId, Buffer.from('Informe v1')));
    expect((await seed.read()).document).toBe('Informe v1');
    const lines: string[] = [];
    await rotateClinicalKey(t.config, t.app, (l) => lines.push(l));
    expect(lines.join('\n')).toContain('1 files written before envelope encryption');
    expect((await readAll(t.app.services.storage.getRange(doc!.storage_key, 0, 7))).toString()).toBe('DIVANv2\n');
    expect((await seed.read()).document).toBe('Informe v1');
    expect(existsSync(join(t.config.dataDir, 'files'))).toBe(false);
  });
});
