import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migratedDataDir } from '../../test/pglite-data-dir';
import { runToExit, startServerProcess, onPostgresPass } from '../../test/server-process';

/** The embedded database must not lose an acknowledged write, and only one process may own it. */
const dirs: string[] = [];
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'divan-dur-'));
  dirs.push(d);
  return d;
};
/** A data dir whose database is migrated already (test/pglite-data-dir.ts): these tests are about what comes after. */
const migratedDir = async () => {
  const d = await migratedDataDir('divan-dur-');
  dirs.push(d, `${d}.clinical-key`);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const env = (dir: string) => ({ DATA_DIR: dir, AUTH_RATE_LIMIT_IP: '100000', AUTH_RATE_LIMIT_EMAIL: '100000' });

describe.skipIf(onPostgresPass)('embedded PGlite data dir', () => {
  it('keeps every acknowledged write after the server is killed with SIGKILL mid-stream', async () => {
    const dir = await migratedDir();
    const server = await startServerProcess(env(dir));
    const acknowledged: string[] = [];
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop && i < 500; i++) {
        const email = `w${w}-${i}@example.com`;
        try {
          const res = await fetch(`${server.url}/api/v1/realms/therapists/users`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ firstName: 'Dur', email, password: 'Consulta2026' }),
          });
          if (res.status === 201) acknowledged.push(email);
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    while (acknowledged.length < 25) await new Promise((r) => setTimeout(r, 20));
    await server.kill(); // SIGKILL: no shutdown hook runs
    stop = true;
    await Promise.all(writers);

    const again = await startServerProcess(env(dir));
    try {
      for (const email of acknowledged) {
        const res = await fetch(`${again.url}/dev/mail/messages?to=${encodeURIComponent(email)}`);
        const mails = (await res.json()) as unknown[];
        const exists = await fetch(`${again.url}/api/v1/realms/therapists/code`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: 'Consulta2026' }),
        });
        // Unconfirmed but present: the account and its mail survived.
        expect({ email, status: exists.status, mails: mails.length }).toEqual({ email, status: 403, mails: 1 });
      }
    } finally {
      await again.stop();
    }
  }, 300_000);

  it('refuses a second process on the same data dir, and SIGTERM closes cleanly and releases it', async () => {
    const dir = await migratedDir();
    const first = await startServerProcess(env(dir));
    const second = await runToExit(env(dir));
    expect(second.code).toBe(1);
    expect(second.output).toContain('is in use by another Diván process');
    expect(await first.stop()).toBe(0);
    expect(existsSync(join(dir, 'divan.lock'))).toBe(false);
    const third = await startServerProcess(env(dir));
    expect(await third.stop()).toBe(0);
  }, 300_000);

  it('stops at start-up with one line naming a wrong variable', async () => {
    const res = await runToExit({ DATA_DIR: newDir(), PORT: 'not-a-port' });
    expect(res.code).toBe(1);
    expect(res.output.trim()).toMatch(/^Invalid environment variable PORT: /);
  }, 300_000);
});
