import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createPostgresDatabase, createTestApp, type TestApp } from '../../test/test-app';
import { seedClinicalRecords } from '../../test/clinical-records';
import { BackupError, WRONG_PASSPHRASE } from '../crypto/backup-archive';
import { backup, restore } from './backup';

/** The encrypted backup on PostgreSQL (pg_dump / pg_restore), in process. Needs TEST_DATABASE_URL. */
const url = process.env.TEST_DATABASE_URL;
if (!url) console.warn('backup-postgres.test.ts skipped: set TEST_DATABASE_URL to run it');

describe.skipIf(!url)('npm run backup / restore (PostgreSQL)', () => {
  let t: TestApp;
  let target: Awaited<ReturnType<typeof createPostgresDatabase>>;
  const dir = mkdtempSync(join(tmpdir(), 'divan-pgbk-'));
  beforeAll(async () => {
    t = await createTestApp();
    target = await createPostgresDatabase(url!, { empty: true }); // a new server's empty database, as a restore meets it
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await target?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('round-trips the database while the server runs; a wrong passphrase restores nothing', async () => {
    const seed = await seedClinicalRecords(t, 'pg@consulta.test');
    const file = await backup(t.config, 'frase de la copia de postgres', join(dir, 'copia.backup'));
    expect(readFileSync(file).includes(Buffer.from('pg@consulta.test'))).toBe(false);

    const into = { ...t.config, databaseUrl: target.url, dataDir: join(dir, 'restored') };
    await expect(restore(into, file, async () => 'no es la frase', false)).rejects.toThrow(new BackupError(WRONG_PASSPHRASE));
    const again = await createTestApp({ databaseUrl: target.url, clinicalKey: t.config.clinicalKey, appSecret: t.config.appSecret });
    try {
      expect(await again.rows(sql`select 1 from patients`)).toEqual([]);
    } finally {
      await again.close();
    }

    // The target now has tables (the app above migrated it): only --force replaces them.
    await expect(restore(into, file, async () => 'frase de la copia de postgres', false)).rejects.toThrow(/ya tiene datos.*--force/);
    expect(await restore(into, file, async () => 'frase de la copia de postgres', true)).toContain('restaurada');
    // Started on the restored DATA_DIR: its files (and their installation marker) came back with the database.
    const restored = await createTestApp({
      databaseUrl: target.url,
      dataDir: into.dataDir,
      clinicalKey: t.config.clinicalKey,
      appSecret: t.config.appSecret,
    });
    try {
      const [entry] = await restored.rows<{ title_enc: string }>(sql`select title_enc from history_entries where id = ${seed.entryId}`);
      expect(
        await restored.app.services.cipher.decryptText(seed.workspaceId, entry!.title_enc, `history_entries:${seed.patientId}:title`),
      ).toBe('Duelo por la pérdida del padre');
    } finally {
      await restored.close();
    }
  }, 180_000);
});
