// A server whose log pipe nobody reads (its parent went away, a log shipper hung) keeps serving and
// still stops on SIGTERM within its grace period: logging never blocks the event loop.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migratedDataDir } from '../test/pglite-data-dir';
import { entryArgs, freePort, onPostgresPass } from '../test/server-process';

const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// Its database migrated already (test/pglite-data-dir.ts): the test is about the running server.
const dir = onPostgresPass ? '' : await migratedDataDir('divan-logpipe-');
afterAll(() => [dir, `${dir}.clinical-key`].forEach((d) => d && rmSync(d, { recursive: true, force: true })));

describe.skipIf(onPostgresPass)('a log pipe nobody reads', () => {
  it('blocks neither requests nor SIGTERM', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dir,
      LOG_LEVEL: 'debug',
      WEB_DIST: '/nonexistent',
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    // stdout and stderr are pipes this test never reads: once their buffers are full, every write would wait.
    const child = spawn(process.execPath, entryArgs('main'), { cwd: serverDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
    try {
      // Start-up (tsx's first compile when there is no fresh build): up to 90 s on a loaded 2-core machine (as startServerProcess allows).
      let up = false;
      for (const until = Date.now() + 90_000; Date.now() < until && !up;) {
        up = await fetch(`${url}/api/v1/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (!up) await new Promise((r) => setTimeout(r, 100));
      }
      expect(up).toBe(true);
      // Debug logs two lines a request: a few thousand requests are megabytes, far past a pipe's 64 KB.
      for (let i = 0; i < 30; i++)
        await Promise.all(
          Array.from({ length: 100 }, () => fetch(`${url}/api/v1/health?padding=${'x'.repeat(200)}`).then((r) => r.arrayBuffer())),
        );
      const stillServing = await fetch(`${url}/api/v1/health`, { signal: AbortSignal.timeout(5000) }).then(
        (r) => r.status,
        (e: Error) => e.name,
      );
      expect(stillServing).toBe(200);
      const t0 = Date.now();
      child.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 15_000))]);
      expect(code).not.toBe('hung');
      expect(Date.now() - t0).toBeLessThan(12_000);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 180_000);
});
