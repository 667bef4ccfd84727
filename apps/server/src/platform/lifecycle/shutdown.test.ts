// The real server process (npm start) on SIGTERM: readiness turns 503 at once while the listener still
// takes connections for SHUTDOWN_DRAIN_MS; then new connections are refused, a request in flight (its
// body still arriving) is finished and answered, sockets are closed "going away" (1001), and the process
// exits 0 inside SHUTDOWN_GRACE_MS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { REALTIME_PATH } from '@divan/core';
import { PASSWORD } from '../../test/auth-flows';
import { migratedDataDir } from '../../test/pglite-data-dir';
import { startServerProcess, type ServerProcess } from '../../test/server-process';
import { AUTH, createPostgresDatabase } from '../../test/test-app';

const DRAIN_MS = 1500;
const GRACE_MS = 8000;

let server: ServerProcess;
let dir: string;
let drop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  dir = await migratedDataDir('divan-shutdown-');
  const pgDb = process.env.TEST_DATABASE_URL ? await createPostgresDatabase(process.env.TEST_DATABASE_URL) : undefined;
  drop = pgDb?.drop;
  server = await startServerProcess({
    DATA_DIR: dir,
    SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    SHUTDOWN_GRACE_MS: String(GRACE_MS),
    AUTH_RATE_LIMIT_IP: '1000',
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
  });
}, 120_000);

afterAll(async () => {
  if (server?.child.exitCode === null) await server.kill();
  await drop?.();
  [dir, `${dir}.clinical-key`].forEach((d) => d && rmSync(d, { recursive: true, force: true }));
});

/** A request whose body the client is still sending: the headers and a first part now, the rest on `finish`. */
function slowRequest(url: string, path: string, body: string) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (d) => (received += d));
  const ended = new Promise<string>((res) => {
    socket.on('close', () => res(received));
    socket.on('error', () => {});
  });
  const half = Math.floor(body.length / 2);
  const opened = new Promise<void>((res) => socket.once('connect', () => res()));
  return {
    async start() {
      await opened;
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
          body.slice(0, half),
      );
    },
    finish: () => socket.write(body.slice(half)),
    /** Everything the server answered, once it closed the connection. */
    ended,
  };
}

const refused = (url: string) =>
  fetch(url).then(
    () => false,
    (err: Error & { cause?: { code?: string } }) => err.cause?.code === 'ECONNREFUSED',
  );

describe('SIGTERM on the real server process', () => {
  it('drains: 503 readiness at once, new connections refused after the drain, the in-flight request answered, sockets told 1001, exit 0 in the grace', async () => {
    expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}${REALTIME_PATH}`);
    const wsClosed = new Promise<number>((res) => ws.once('close', (code) => res(code)));
    await new Promise<void>((res, rej) => (ws.once('open', () => res()), ws.once('error', rej)));
    const signup = JSON.stringify({ firstName: 'Nuria', email: `shutdown-${Date.now()}@divan.test`, password: PASSWORD });
    const slow = slowRequest(server.url, `${AUTH}/users`, signup);
    await slow.start();
    await sleep(100); // the server has read the headers: the request is in flight

    const exited = new Promise<number | null>((res) => server.child.once('exit', (code) => res(code)));
    const t0 = Date.now();
    server.child.kill('SIGTERM');
    await sleep(200);
    // Draining: not ready, but still serving new connections (the balancer's checks need this window).
    const ready = await fetch(`${server.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'draining' });
    expect((await fetch(`${server.url}/health/live`)).status).toBe(200);

    // After the drain: the listener is closed, the socket was told "going away".
    await sleep(DRAIN_MS + 300 - (Date.now() - t0));
    expect(await refused(`${server.url}/health/live`)).toBe(true);
    expect(await wsClosed).toBe(1001);
    expect(server.child.exitCode).toBeNull(); // still finishing the in-flight request

    // The in-flight request's body arrives now: it is handled and answered (a real sign-up: hashing, the
    // database, the mail outbox), and its connection, idle after the answer, is closed by the server.
    slow.finish();
    const answer = await slow.ended;
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
    expect(answer).toContain('"userId"');
    expect(answer.toLowerCase()).toContain('connection: close');

    const code = await exited;
    expect(code, server.output()).toBe(0);
    expect(Date.now() - t0).toBeLessThan(GRACE_MS);
    expect(server.output()).not.toMatch(/grace exceeded|error while closing/);
  }, 60_000);
});
