// One process per data dir, also when two containers on two hosts share the volume and are both pid 1.
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireDataDirLock, DataDirInUseError } from './data-dir-lock';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const freshDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'divan-lock-'));
  dirs.push(d);
  return d;
};
const lockOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'divan.lock'), 'utf8')) as { host: string; pid: number; token: string; heartbeatAt: number };
const writeLock = (dir: string, v: object) => writeFileSync(join(dir, 'divan.lock'), JSON.stringify(v));
/** A pid that surely is not running: a child that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

describe('data dir lock', () => {
  it('refuses a second owner on the same host while the first lives, and frees the dir on release', () => {
    const dir = freshDir();
    const a = acquireDataDirLock(dir, { host: 'here' });
    writeLock(dir, { ...lockOf(dir), pid: process.ppid }); // as if another live process on this host held it
    expect(() => acquireDataDirLock(dir, { host: 'here' })).toThrow(DataDirInUseError);
    a.release(); // not ours any more (token kept, but the test rewrote the pid): released by token
    expect(existsSync(join(dir, 'divan.lock'))).toBe(false);
    acquireDataDirLock(dir, { host: 'here' }).release();
  });

  it('takes over at once a lock left on this host by a process that died, or by an earlier run with our own pid', () => {
    const dir = freshDir();
    writeLock(dir, { host: 'here', pid: deadPid(), token: 't', heartbeatAt: Date.now() });
    const a = acquireDataDirLock(dir, { host: 'here' });
    a.release();
    writeLock(dir, { host: 'here', pid: process.pid, token: 'old-run', heartbeatAt: Date.now() });
    acquireDataDirLock(dir, { host: 'here' }).release();
    // A lock file from before (a bare pid) of a dead process is taken over too.
    writeFileSync(join(dir, 'divan.lock'), String(deadPid()));
    acquireDataDirLock(dir).release();
  });

  it('refuses a lock held on another host with the same pid while its heartbeat is fresh; takes it once stale', () => {
    const dir = freshDir();
    writeLock(dir, { host: 'container-a', pid: process.pid, token: 'a', heartbeatAt: Date.now() });
    expect(() => acquireDataDirLock(dir, { host: 'container-b' })).toThrow(/PID \d+ on container-a/);
    writeLock(dir, { host: 'container-a', pid: process.pid, token: 'a', heartbeatAt: Date.now() - 60_000 });
    const b = acquireDataDirLock(dir, { host: 'container-b' });
    expect(lockOf(dir).host).toBe('container-b');
    b.release();
  });

  it('keeps its heartbeat fresh while held, and leaves a lock taken over by another alone on release', async () => {
    const dir = freshDir();
    const a = acquireDataDirLock(dir, { host: 'here', heartbeatMs: 50 });
    const first = lockOf(dir).heartbeatAt;
    await new Promise((r) => setTimeout(r, 200));
    expect(lockOf(dir).heartbeatAt).toBeGreaterThan(first);
    writeLock(dir, { host: 'elsewhere', pid: 1, token: 'theirs', heartbeatAt: Date.now() });
    a.release();
    expect(lockOf(dir).token).toBe('theirs');
  });
});
