import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { migratedDataDir } from '../../test/pglite-data-dir';
import { runToExit, startServerProcess, onPostgresPass, type ServerProcess } from '../../test/server-process';

const dirs: string[] = [];
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'divan-bk-'));
  dirs.push(d);
  return d;
};
/** A data dir whose database is migrated already (test/pglite-data-dir.ts): what a backup holds is what comes after. */
const migratedDir = async () => {
  const d = await migratedDataDir('divan-bk-');
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const ops = (env: Record<string, string>, ...args: string[]) => runToExit(env, 180_000, ['ops', ...args]);

const signUp = (server: ServerProcess, firstName: string, email: string) =>
  fetch(`${server.url}/api/v1/realms/therapists/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ firstName, email, password: 'Consulta2026' }),
  });

describe.skipIf(onPostgresPass)('npm run backup / restore (PGlite)', () => {
  // One server start for both tests (each start of a process on PGlite costs seconds): the backup's account
  // and the admin test's; the backup test stops it, the admin test's commands need it stopped.
  let dir: string;
  let server: ServerProcess;
  let signedUp: number[];
  beforeAll(async () => {
    dir = await migratedDir();
    dirs.push(`${dir}.clinical-key`);
    server = await startServerProcess({ DATA_DIR: dir });
    signedUp = [(await signUp(server, 'Copia', 'copia@example.com')).status, (await signUp(server, 'Plan', 'plan@example.com')).status];
  }, 120_000);
  afterAll(() => server?.stop());

  it('writes an encrypted backup that brings accounts back in a new data dir, given its passphrase and the master key', async () => {
    expect(server.output()).toContain(`Clave maestra clínica creada en ${dir}.clinical-key`);
    const email = 'copia@example.com';
    expect(signedUp[0]).toBe(201);
    const pass = { BACKUP_PASSPHRASE: 'una frase larga de copia' };
    const refused = await ops({ DATA_DIR: dir, ...pass }, 'backup', join(dir, 'bk'));
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('in use by another Diván process');
    expect(await server.stop()).toBe(0);

    expect((await ops({ DATA_DIR: dir, BACKUP_PASSPHRASE: 'corta' }, 'backup')).output).toContain('al menos 12 caracteres');
    const archive = join(newDir(), 'copia.backup');
    const made = await ops({ DATA_DIR: dir, ...pass }, 'backup', archive);
    expect(made.output).toContain(`Copia cifrada escrita en ${archive}`);
    expect(made.code).toBe(0);
    expect(readFileSync(archive).includes(Buffer.from(email))).toBe(false);

    const fresh = newDir();
    const wrong = await ops({ DATA_DIR: fresh, BACKUP_PASSPHRASE: 'no es la contraseña' }, 'restore', archive);
    expect(wrong.code).toBe(1);
    expect(wrong.output).toContain('La contraseña de la copia no es correcta: no se ha restaurado nada.');
    // Nothing restored, no staging left beside it (loadConfig writes the token secret of a new data dir, as ever).
    expect(readdirSync(fresh).filter((f) => f !== 'app-secret')).toEqual([]);
    expect(readdirSync(dirname(fresh)).filter((f) => f.startsWith(`${basename(fresh)}.restoring`))).toEqual([]);

    const restored = await ops({ DATA_DIR: fresh, ...pass }, 'restore', archive);
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toMatch(/Esta copia necesita la clave maestra clínica [0-9a-f]{16}/);
    expect((await ops({ DATA_DIR: fresh, ...pass }, 'restore', archive)).output).toContain('--force');
    // Without the master key the server refuses to start (and creates no new key over the data).
    const keyless = await runToExit({ DATA_DIR: fresh, PORT: '0' }, 60_000);
    expect(keyless.code).toBe(1);
    expect(keyless.output).toContain('Invalid environment variable CLINICAL_KEY_FILE');
    expect(existsSync(`${fresh}.clinical-key`)).toBe(false);

    const again = await startServerProcess({ DATA_DIR: fresh, CLINICAL_KEY_FILE: `${dir}.clinical-key` });
    try {
      const login = await fetch(`${again.url}/api/v1/realms/therapists/code`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'Consulta2026' }),
      });
      expect(((await login.json()) as { code: string }).code).toBe('user_email_not_verified');
    } finally {
      await again.stop();
    }
  }, 300_000);

  it('npm run admin sets a workspace plan from the command line', async () => {
    await server.stop(); // stopped already when the backup test ran first
    const listed = await ops({ DATA_DIR: dir }, 'admin', 'list-workspaces');
    const id = listed.output.match(/^([0-9a-f-]{36}) +sin plan .*Consulta de Plan \(plan@example.com\)$/m)?.[1];
    expect(id, listed.output).toBeTruthy();
    const set = await ops({ DATA_DIR: dir }, 'admin', 'set-plan', id!, 'team', '--seats', '4');
    expect(set.output).toContain('Consulta de Plan: plan team, 4 seats');
    expect((await ops({ DATA_DIR: dir }, 'admin', 'list-workspaces')).output).toMatch(new RegExp(`${id} +team +4 plazas`));
    const bad = await ops({ DATA_DIR: dir }, 'admin', 'set-plan', id!, 'gold');
    expect(bad.code).toBe(1);
    expect(bad.output).toContain('Usage:');
  }, 300_000);
});
