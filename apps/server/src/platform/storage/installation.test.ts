import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createSecondApp, createTestApp, json, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist } from '../../test/workspace-fixtures';
import { multipart } from '../../test/images';
import { checkInstallation, DataDirMismatchError, INSTALLATION_MARKER } from './installation';
import { localDiskStorage } from './storage';

/**
 * Every process of one installation shares one DATA_DIR (until object storage exists): the first writes an
 * installation id into the database and into DATA_DIR/files, and on PostgreSQL a process whose DATA_DIR
 * disagrees refuses to start with one line naming it (issue 24).
 */
const dirs: string[] = [];
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'divan-inst-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the installation check, on the database of one test app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());
  const check = (dataDir: string, shared = true) =>
    checkInstallation(t.app.services.database.db, {
      storage: localDiskStorage(join(dataDir, 'files')),
      dataDir,
      shared,
    });

  it('at start-up the app wrote the database’s id into its DATA_DIR', async () => {
    const [row] = await t.rows<{ id: string }>(sql`select id from installation`);
    expect(readFileSync(join(t.config.dataDir, 'files', INSTALLATION_MARKER), 'utf8').trim()).toBe(row!.id);
    expect(await check(t.config.dataDir)).toBe(row!.id);
  });

  it('on a shared database, a DATA_DIR without the marker or with another one is refused, naming it', async () => {
    const empty = dir();
    await expect(check(empty)).rejects.toThrow(new RegExp(`^DATA_DIR ${empty} is not the data directory of the other Diván processes`));
    await expect(check(empty)).rejects.toBeInstanceOf(DataDirMismatchError);
    const other = dir();
    await check(other, false).catch(() => undefined);
    writeFileSync(join(other, 'files', INSTALLATION_MARKER), 'otra-instalacion\n');
    await expect(check(other)).rejects.toThrow(/its files belong to installation otra-instalacion/);
  });

  it('on a new installation, processes starting at once agree when they share a DATA_DIR, and only the first when they do not', async () => {
    await t.rows(sql`delete from installation`);
    const shared = dir();
    const [a, b] = await Promise.all([check(shared), check(shared)]);
    expect(a).toBe(b);
    await t.rows(sql`delete from installation`);
    const results = await Promise.allSettled([check(dir()), check(dir())]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('on PGlite (the database inside DATA_DIR) the marker follows the database', async () => {
    const [row] = await t.rows<{ id: string }>(sql`select id from installation`);
    const fresh = dir();
    expect(await check(fresh, false)).toBe(row!.id);
    expect(readFileSync(join(fresh, 'files', INSTALLATION_MARKER), 'utf8').trim()).toBe(row!.id);
  });
});

const url = process.env.TEST_DATABASE_URL;
if (!url) console.warn('installation.test.ts: the two-process test skipped: set TEST_DATABASE_URL to run it');

describe.skipIf(!url)('two server processes on one PostgreSQL database', () => {
  let a: TestApp;
  beforeAll(async () => {
    a = await createTestApp();
  }, 60_000);
  afterAll(() => a?.close());

  it('a second process with a DATA_DIR of its own refuses to start; one sharing the first one’s starts and reads its files', async () => {
    const own = dir();
    await expect(createSecondApp(a, { dataDir: own })).rejects.toThrow(new RegExp(`^DATA_DIR ${own} is not the data directory`));
    const owner = await therapist(a, 'dos@divan.test', 'Dos');
    const ws = await createWorkspace(a, owner, 'Consulta Dos');
    const P = `/api/v1/workspaces/${ws.id}/patients/${json<{ id: string }>(await a.post(`/api/v1/workspaces/${ws.id}/patients`, { firstName: 'Sara' }, { token: owner.accessToken })).id}`;
    const { payload, headers } = multipart('file', 'nota.txt', 'text/plain', Buffer.from('Escrita por el primero'));
    const doc = json<{ id: string }>(
      await a.app.inject({
        method: 'POST',
        url: `${P}/documents`,
        payload,
        headers: { ...headers, authorization: `Bearer ${owner.accessToken}` },
      }),
    );
    const b = await createSecondApp(a);
    try {
      const res = await b.get(`${P}/documents/${doc.id}/download`, { token: owner.accessToken });
      expect({ status: res.statusCode, body: res.body }).toEqual({ status: 200, body: 'Escrita por el primero' });
    } finally {
      await b.close();
    }
  }, 120_000);
});
