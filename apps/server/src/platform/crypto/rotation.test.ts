import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app';
import { seedClinicalRecords } from '../../test/clinical-records';
import { legacyFile, legacyText } from '../../test/legacy-cipher';
import { Cipher } from './cipher';
import { Keyring } from './keyring';
import { masterKeyId, readKeyFile, writeKeyFile } from './master-key';
import { rotateClinicalKey } from './rotate';

const dir = mkdtempSync(join(tmpdir(), 'divan-rotate-'));
const keyFile = join(dir, 'clinical-key');
const oldKey = randomBytes(32);
let t: TestApp;
let seed: Awaited<ReturnType<typeof seedClinicalRecords>>;

beforeAll(async () => {
  writeKeyFile(keyFile, oldKey, []);
  t = await createTestApp({ clinicalKey: { file: keyFile } });
  seed = await seedClinicalRecords(t);
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run admin -- rotate-clinical-key', () => {
  it('re-wraps every data key with a new master key and re-encrypts v1 data; every record still reads', async () => {
    const secret = t.config.appSecret;
    const ws = seed.workspaceId;
    // Records as the version before envelope encryption wrote them (HKDF of APP_SECRET, no header).
    const [old] = await t.rows<{ id: string }>(sql`select id from history_entries where id = ${seed.entryId}`);
    await t.rows(
      sql`update history_entries set title_enc = ${legacyText(secret, ws, 'Título v1')}, body_enc = ${legacyText(secret, ws, '<p>Cuerpo v1</p>')} where id = ${old!.id}`,
    );
    await t.rows(sql`update history_revisions set body_enc = ${legacyText(secret, ws, '<p>Revisión v1</p>')} where entry_id = ${old!.id}`);
    const [mail] = await t.rows<{ id: string }>(sql`select id from mail_outbox order by created_at limit 1`);
    const v1Mail = { to: 'marta@consulta.test', subject: 'Correo v1', text: 'Texto v1', html: '<p>Texto v1</p>' };
    await t.rows(
      sql`update mail_outbox set payload_enc = ${legacyText(secret, 'divan:mail-outbox', JSON.stringify(v1Mail))} where id = ${mail!.id}`,
    );
    const [doc] = await t.rows<{ storage_key: string }>(sql`select storage_key from patient_documents where id = ${seed.documentId}`);
    const docPath = join(t.config.dataDir, 'files', doc!.storage_key);
    writeFileSync(docPath, legacyFile(secret, ws, Buffer.from('Informe v1')));
    const [imp] = await t.rows<{ rows_enc: string }>(sql`select rows_enc from patient_imports where id = ${seed.importId}`);
    const rows = await t.app.services.cipher.decryptText(ws, imp!.rows_enc, 'patient_imports.rows');
    await t.rows(sql`update patient_imports set rows_enc = ${legacyText(secret, ws, rows)} where id = ${seed.importId}`);

    const before = await seed.read();
    expect(before.entries[0]).toMatchObject({ title: 'Título v1', body: '<p>Cuerpo v1</p>' });
    expect(before.document).toBe('Informe v1');

    const lines: string[] = [];
    await rotateClinicalKey(t.config, t.app, (l) => lines.push(l));
    const keys = readKeyFile(keyFile);
    expect(keys.current.equals(oldKey)).toBe(false);
    expect(keys.previous.map((k) => k.equals(oldKey))).toEqual([true]);
    expect(lines.join('\n')).toMatch(/re-wrapped/);
    expect(lines.join('\n')).toContain('5 values and 1 files written before envelope encryption');

    const wrapped = await t.rows<{ master_key_id: string }>(sql`select distinct master_key_id from clinical_data_keys`);
    expect(wrapped).toEqual([{ master_key_id: masterKeyId(keys.current) }]);
    const v1Left = await t.rows<{
      n: number;
    }>(sql`select (select count(*) from history_entries where title_enc like 'v1:%' or body_enc like 'v1:%')
      + (select count(*) from history_revisions where title_enc like 'v1:%' or body_enc like 'v1:%')
      + (select count(*) from mail_outbox where payload_enc like 'v1:%') + (select count(*) from patient_imports where rows_enc like 'v1:%') as n`);
    expect(Number(v1Left[0]!.n)).toBe(0);
    expect(readFileSync(docPath).subarray(0, 8).toString()).toBe('DIVANv2\n');

    // Every record reads back through the running server…
    const after = await seed.read();
    expect(after.medication).toBe('Sertralina 50 mg por las mañanas');
    expect(after.entries[0]).toMatchObject({ title: 'Título v1', body: '<p>Cuerpo v1</p>' });
    expect(after.revisions.map((r) => r.body)).toContain('<p>Revisión v1</p>');
    expect(after.drafts[0]!.body).toContain('Ideas autolíticas');
    expect(after.document).toBe('Informe v1');
    expect(after.mail.map((m) => m.subject)).toContain('Correo v1');

    // …and a process with only the new master key and no APP_SECRET reads the stored values too.
    const fresh = new Cipher(new Keyring(t.app.services.database.db, { current: keys.current, previous: [] }));
    await fresh.start();
    const [entry] = await t.rows<{ title_enc: string }>(sql`select title_enc from history_entries where id = ${seed.entryId}`);
    expect(await fresh.decryptText(ws, entry!.title_enc, `history_entries:${seed.patientId}:title`)).toBe('Título v1');
    // Bound to its patient and column: read as the body, it does not decrypt.
    await expect(fresh.decryptText(ws, entry!.title_enc, `history_entries:${seed.patientId}:body`)).rejects.toThrow();
    const [imp2] = await t.rows<{ rows_enc: string }>(sql`select rows_enc from patient_imports where id = ${seed.importId}`);
    expect(await fresh.decryptText(ws, imp2!.rows_enc, 'patient_imports.rows')).toBe(rows);

    expect(await seed.commitImport()).toMatchObject({ status: 'done', created: 1 });

    // A second rotation finishes cleanly (the first new key becomes the previous one).
    await rotateClinicalKey(t.config, t.app, () => {});
    expect(readKeyFile(keyFile).previous[0]!.equals(keys.current)).toBe(true);
    expect((await seed.read()).entries[0]!.title).toBe('Título v1');
  });
});
