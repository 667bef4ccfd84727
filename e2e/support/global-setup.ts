import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { assertBrowserOrSkip, LEARNING_UPLOAD_TOKEN, OPERATOR_EMAIL, STAFF_EMAIL } from './env';
import { startTestSmtp } from './smtp';

const root = resolve(import.meta.dirname, '../..');
const serverEntry = join(root, 'apps/server/dist/main.js');
const webIndex = join(root, 'apps/web/dist/index.html');

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? ok(address.port) : fail(new Error('no port'))));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode} before becoming healthy`);
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server not healthy at ${url} after ${timeoutMs} ms`);
}

/** Starts the real built server on a free port with a throw-away data directory. */
export default async function setup(project: TestProject) {
  if (!assertBrowserOrSkip()) {
    project.provide('baseUrl', '');
    return;
  }
  for (const file of [serverEntry, webIndex]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first (npm run test:e2e does).`);
  }
  const workers = Math.max(1, project.config.maxWorkers ?? 1);
  const port = await freePort();
  // Mail goes out over real SMTP through the outbox and its relay job (and stays readable at /dev/mail).
  const smtp = await startTestSmtp(await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'divan-e2e-'));
  // A private copy of the web build: a rebuild during the run must not pull assets from under the server.
  const webDist = join(dataDir, 'web');
  cpSync(join(root, 'apps/web/dist'), webDist, { recursive: true });
  const child = spawn(process.execPath, [serverEntry], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: join(dataDir, 'data'),
      PUBLIC_URL: baseUrl,
      WEB_DIST: webDist,
      SMTP_URL: smtp.url,
      DEV_MAIL: 'on',
      OPERATOR_EMAIL,
      LEARNING_STAFF_EMAILS: STAFF_EMAIL,
      LEARNING_UPLOAD_TOKEN,
      // Every file calls from 127.0.0.1: with files running side by side, each keeps the per-IP budget of
      // the public and auth routes it had alone (the default 30 a minute, times the files at once).
      AUTH_RATE_LIMIT_IP: process.env.AUTH_RATE_LIMIT_IP ?? String(30 * workers),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  child.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  try {
    await waitForHealth(baseUrl, child);
  } catch (error) {
    child.kill('SIGKILL');
    await smtp.close();
    throw new Error(`${(error as Error).message}\n--- server output ---\n${output}`);
  }
  project.provide('baseUrl', baseUrl);

  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
