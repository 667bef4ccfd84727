import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { FAKE_CLIENT, startFakeGoogle } from '../../apps/server/src/test/fake-google-calendar';
import { startFakeOidc } from '../../apps/server/src/test/fake-oidc/fake-oidc';
import { assertBrowserOrSkip, LEARNING_UPLOAD_TOKEN, OPERATOR_EMAIL, STAFF_EMAIL } from './env';
import { startFakeGoogleControl } from './fake-google';
import { startTestSmtp } from './smtp';

const root = resolve(import.meta.dirname, '../..');
const serverEntry = join(root, 'apps/server/dist/main.js');
const webIndex = join(root, 'apps/web/dist/index.html');

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The fake Google and Apple (oidc-provider on loopback) the server signs in with (tests/social-sign-in.test.ts). */
    googleIssuer: string;
    appleIssuer: string;
    /** The control of the fake Google Calendar the server syncs with (support/fake-google.ts, tests/google-calendar.test.ts). */
    googleCalendarControl: string;
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
    project.provide('googleIssuer', '');
    project.provide('appleIssuer', '');
    project.provide('googleCalendarControl', '');
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
  // A fake Google and a fake Apple for «Continuar con Google / Apple» (Apple answers by form_post to the server).
  const google = await startFakeOidc({
    kind: 'google',
    // One Google client for sign-in and Calendar (GOOGLE_CLIENT_ID/SECRET): the fake Calendar's own.
    clientId: FAKE_CLIENT.id,
    clientSecret: FAKE_CLIENT.secret,
    redirectUris: [`${baseUrl}/auth/google/callback`],
  });
  const apple = await startFakeOidc({
    kind: 'apple',
    clientId: 'es.divan.e2e',
    redirectUris: [`${baseUrl}/api/v1/realms/therapists/login/apple/callback`],
  });
  // A fake Google Calendar (OAuth + Calendar API v3) for Ajustes › Integraciones, and its control for the tests.
  const calendar = await startFakeGoogle();
  const calendarControl = await startFakeGoogleControl(calendar, baseUrl);
  const closeFakes = () => Promise.all([google.close(), apple.close(), calendar.close(), calendarControl.close()]);
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
      ...google.env,
      ...apple.env,
      GOOGLE_OAUTH_BASE: calendar.url,
      GOOGLE_TOKEN_BASE: calendar.url,
      GOOGLE_API_BASE: calendar.url,
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
    await closeFakes();
    throw new Error(`${(error as Error).message}\n--- server output ---\n${output}`);
  }
  project.provide('baseUrl', baseUrl);
  project.provide('googleIssuer', google.issuer);
  project.provide('appleIssuer', apple.issuer);
  project.provide('googleCalendarControl', calendarControl.url);

  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    await smtp.close();
    await closeFakes();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
