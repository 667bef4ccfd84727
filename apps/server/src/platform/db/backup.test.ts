import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runToExit, startServerProcess } from '../../test/server-process';

const dirs: string[] = [];
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'divan-bk-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const ops = (env: Record<string, string>, ...args: string[]) => runToExit(env, 180_000, ['src/ops.ts', ...args]);

describe('npm run backup / restore (PGlite)', () => {
  it('writes a restorable backup that brings accounts back in a new data dir', async () => {
    const dir = newDir();
    const server = await startServerProcess({ DATA_DIR: dir });
    const email = 'copia@example.com';
    const res = await fetch(`${server.url}/api/v1/realms/therapists/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Copia', email, password: 'Consulta2026' }),
    });
    expect(res.status).toBe(201);
    const refused = await ops({ DATA_DIR: dir }, 'backup', join(dir, 'bk'));
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('in use by another Diván process');
    expect(await server.stop()).toBe(0);

    const backupDir = join(newDir(), 'backup');
    const made = await ops({ DATA_DIR: dir }, 'backup', backupDir);
    expect(made.output).toContain('Backup written to');
    expect(made.code).toBe(0);

    const fresh = newDir();
    const restored = await ops({ DATA_DIR: fresh }, 'restore', backupDir);
    expect(restored.code, restored.output).toBe(0);
    expect((await ops({ DATA_DIR: fresh }, 'restore', backupDir)).output).toContain('--force');

    const again = await startServerProcess({ DATA_DIR: fresh });
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
    const dir = newDir();
    const server = await startServerProcess({ DATA_DIR: dir });
    await fetch(`${server.url}/api/v1/realms/therapists/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Plan', email: 'plan@example.com', password: 'Consulta2026' }),
    });
    await server.stop();
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
