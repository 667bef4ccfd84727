import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app';
import { seedClinicalRecords } from '../../test/clinical-records';
import { backup } from '../db/backup';
import { readArchive } from './backup-archive';
import { generate } from 'otplib';
import { AUTH, json } from '../../test/test-app';
import { SoftAuthenticator } from '../../test/soft-authenticator';

/**
 * Issue 9, "nothing leaked": after sign-up, sign-in, a password reset, a patient with medication, a
 * history entry with a revision, a draft, a document, a pending import and an outcome measure's answers, no login code, no link token
 * and no clinical text is found in clear in any table, in PGlite's data files and WAL, in the stored
 * files, nor in the backup (even once its passphrase opens it: the database inside is still encrypted
 * with the master key, which the backup does not hold). PGlite on disk, whatever TEST_DATABASE_URL says.
 */
let t: TestApp;
let seed: Awaited<ReturnType<typeof seedClinicalRecords>>;
let needles: string[];
const logs: string[] = [];

beforeAll(async () => {
  t = await createTestApp(
    { databaseUrl: undefined, inMemoryDatabase: false, logLevel: 'info' },
    { logger: true, logStream: { write: (line: string) => logs.push(line) } },
  );
  seed = await seedClinicalRecords(t, 'secreta@consulta.test');
  needles = [...seed.secrets.clinical, ...seed.secrets.tokens, ...(await secondFactorSecrets(seed.owner.accessToken))];
}, 120_000);

/**
 * Issue 32: the authenticator app's secret (encrypted) and its recovery codes (hashed), and WebAuthn challenges (keyed
 * hashes) — one pending, one answered by a passkey.
 */
async function secondFactorSecrets(token: string): Promise<string[]> {
  const SF = `${AUTH}/second-factor`;
  const { secret } = json<{ secret: string }>(await t.post(`${SF}/totp`, undefined, { token }));
  const confirmed = await t.post(`${SF}/totp/confirm`, { code: await generate({ secret }) }, { token });
  const { recoveryCodes } = json<{ recoveryCodes: string[] }>(confirmed);
  const key = new SoftAuthenticator();
  const options = json<{ challenge: string; user: { id: string } }>(await t.post(`${AUTH}/passkeys/options`, undefined, { token }));
  const registered = await t.post(`${AUTH}/passkeys`, { name: 'Portátil', response: key.register(options).response }, { token });
  if (registered.statusCode !== 201) throw new Error(`passkey: ${registered.body}`);
  const pending = json<{ challenge: string }>(await t.post(`${AUTH}/login/passkey/options`)).challenge;
  return [secret, ...recoveryCodes, ...recoveryCodes.map((c) => c.replace('-', '')), options.challenge, pending];
}
afterAll(async () => {
  // The last test closes the app itself (PGlite checkpoints its files on close); close() then drops the rest.
  await t?.close().catch(() => {});
});

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
/** The 6-digit login code as a number of its own (not inside a longer run of digits). */
const codeIn = (text: string) => new RegExp(`(?<![0-9])${seed.secrets.code}(?![0-9])`).test(text);
const found = (haystack: Buffer | string) =>
  needles.filter((n) => (typeof haystack === 'string' ? haystack.includes(n) : haystack.includes(Buffer.from(n, 'utf8'))));

function* walk(dir: string): Generator<string> {
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, d.name);
    if (d.isDirectory()) yield* walk(full);
    else if (d.isFile()) yield full;
  }
}

describe('secrets at rest', () => {
  it('the records exist and read back in clear through the API', async () => {
    const r = await seed.read();
    expect(r.medication).toContain('Sertralina 50 mg');
    expect(r.entries[0]!.body).toContain('pesadillas recurrentes');
    expect(r.revisions[0]!.body).toContain('insomnio desde la mudanza');
    expect(r.document).toContain('trastorno adaptativo mixto');
    expect(r.measures[0]!.answers).toEqual(seed.measureAnswers);
    expect(seed.secrets.code).toMatch(/^\d{6}$/);
    expect(seed.secrets.tokens).toHaveLength(2);
  });

  it('the server log names each mail but carries no code or link', () => {
    const log = logs.join('');
    expect(log).toContain('[mail] to secreta@consulta.test: Tu código de acceso a Diván');
    expect(found(log)).toEqual([]);
    expect(codeIn(log)).toBe(false);
  });

  it('no table of the database holds a code, a link token or clinical text in clear', async () => {
    const db = t.app.services.database.db;
    const tables = rowsOf<{ s: string; n: string }>(
      await db.execute(sql`select table_schema as s, table_name as n from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`),
    );
    expect(tables.map((x) => x.n)).toEqual(
      expect.arrayContaining([
        'history_entries',
        'mail_outbox',
        'patients',
        'patient_imports',
        'clinical_data_keys',
        'measure_administrations',
      ]),
    );
    const leaks: string[] = [];
    let control = false;
    for (const { s, n } of tables) {
      const dump = rowsOf<{ r: string }>(await db.execute(sql`select x::text as r from ${sql.identifier(s)}.${sql.identifier(n)} x`))
        .map((x) => x.r)
        .join('\n');
      for (const hit of found(dump)) leaks.push(`${s}.${n}: ${hit}`);
      if (codeIn(dump)) leaks.push(`${s}.${n}: login code`);
      // The scan finds what is kept in clear: the patient's surname (not clinical) is.
      control ||= dump.includes('Quintana');
    }
    expect(control).toBe(true);
    expect(leaks).toEqual([]);
  });

  it('nor do the data files, the WAL and the stored files; nor the backup, even opened with its passphrase', async () => {
    await t.app.services.database.db.execute(sql`CHECKPOINT`);
    await t.app.close();
    const dataDir = t.config.dataDir;
    const files = [...walk(dataDir)];
    expect(files.some((f) => f.includes('pg_wal'))).toBe(true);
    expect(files.some((f) => f.includes(join('files', 'documents')))).toBe(true);
    const leaks: string[] = [];
    let control = false;
    for (const f of files) {
      const bytes = readFileSync(f);
      for (const hit of found(bytes)) leaks.push(`${f}: ${hit}`);
      control ||= bytes.includes(Buffer.from('Quintana'));
    }
    expect(control).toBe(true);
    expect(leaks).toEqual([]);

    const archive = await backup(t.config, 'frase de paso de la copia', join(dataDir, '..', `${statSync(dataDir).ino}.backup`));
    const raw = readFileSync(archive);
    expect(found(raw)).toEqual([]);
    const inside = new Map<string, Buffer>();
    await readArchive(archive, 'frase de paso de la copia', (name) => {
      const parts: Buffer[] = [];
      return new Writable({
        write: (c: Buffer, _e, cb) => (parts.push(c), cb()),
        final: (cb) => (inside.set(name, Buffer.concat(parts)), cb()),
      });
    });
    const tar = gunzipSync(inside.get('database.tar.gz')!);
    expect(tar.length).toBeGreaterThan(1_000_000);
    expect(tar.includes(Buffer.from('clinical_data_keys'))).toBe(true);
    expect(tar.includes(Buffer.from('Quintana'))).toBe(true);
    const opened = [...inside].filter(([n]) => n !== 'database.tar.gz').map(([, b]) => b);
    expect([tar, ...opened].flatMap((b) => found(b))).toEqual([]);
    // The master key is not in the backup, in any form.
    const key = t.config.clinicalKey!.key!;
    expect([raw, tar, ...opened].some((b) => b.includes(Buffer.from(key, 'base64')) || b.includes(Buffer.from(key)))).toBe(false);
    rmSync(archive, { force: true });
  }, 120_000);
});
