import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorMessage } from '@divan/core';
import { createTestApp, type TestApp } from '../../test/test-app';
import { therapist, type Therapist } from '../../test/workspace-fixtures';
import { rawRequest } from '../../test/raw-http';

/**
 * Every error, whoever raises it — Fastify, the HTTP parser, the rate limiter, the websocket plugin, the
 * static files, the web app's fallback — reaches the client as spec §8's `{code, message}` with a Spanish
 * message from the catalogue, over a real socket (issue 24).
 */
const dist = mkdtempSync(join(tmpdir(), 'divan-dist-'));
let t: TestApp;
let owner: Therapist;
let base: string;

beforeAll(async () => {
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Diván</title>');
  writeFileSync(join(dist, 'assets', 'app-1.js'), 'console.log(1)');
  t = await createTestApp({
    webDist: dist,
    rateLimit: { perIpPerMinute: 3, perEmailPer15Min: 100, uploadsPerMinute: 100, exportsPerMinute: 100 },
  });
  owner = await therapist(t, 'forma@divan.test', 'Forma');
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);
afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

const catalogue = (code: string) => ({ code, message: errorMessage(code) });

/** Bytes written as they are (a request line no parser reads, headers past their limit), the answer read until the server closes. */
function written(text: string): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let out = '';
    socket.on('data', (d: Buffer) => (out += d.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(out));
    socket.write(text);
  });
}
const answerOf = (raw: string) => ({
  status: Number(raw.split(' ')[1]),
  body: JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as unknown,
});

const upgrade = {
  upgrade: 'websocket',
  connection: 'Upgrade',
  'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
  'sec-websocket-version': '13',
};

describe('every error has the shape of spec §8, in Spanish', () => {
  it('from Fastify, the websocket plugin, the static files and the web app', async () => {
    const json = { 'content-type': 'application/json' };
    const cases: [what: string, req: Parameters<typeof rawRequest>[1], status: number, body: unknown][] = [
      ['an unknown API route', { method: 'GET', path: '/api/v1/nada' }, 404, catalogue('not_found')],
      ['a method no route has', { method: 'PROPFIND', path: '/api/v1/me' }, 404, catalogue('not_found')],
      [
        'a body of a type no parser takes',
        {
          method: 'PATCH',
          path: '/api/v1/me',
          headers: { 'content-type': 'application/xml', authorization: `Bearer ${owner.accessToken}` },
          body: Buffer.from('<a/>'),
        },
        415,
        catalogue('unsupported_media_type'),
      ],
      [
        'malformed JSON',
        {
          method: 'PATCH',
          path: '/api/v1/me',
          headers: { ...json, authorization: `Bearer ${owner.accessToken}` },
          body: Buffer.from('{"a": '),
        },
        400,
        catalogue('invalid_argument'),
      ],
      [
        'an empty JSON body',
        { method: 'PATCH', path: '/api/v1/me', headers: { ...json, authorization: `Bearer ${owner.accessToken}` } },
        400,
        catalogue('invalid_argument'),
      ],
      [
        'a path with a broken escape',
        { method: 'GET', path: '/api/v1/%E0%A4%A' },
        400,
        { code: 'invalid_argument', message: 'La dirección de la petición no es válida.' },
      ],
      ['a path part past its length', { method: 'GET', path: `/api/v1/public/bookings/${'a'.repeat(300)}` }, 404, catalogue('not_found')],
      [
        'an outdated client',
        { method: 'GET', path: '/api/v1/health', headers: { 'x-client-version': '0.0.1' } },
        426,
        catalogue('outdated_client'),
      ],
      ['a websocket handshake on an unknown path', { method: 'GET', path: '/api/v1/nada', headers: upgrade }, 404, catalogue('not_found')],
      ['a websocket handshake on an HTTP route', { method: 'GET', path: '/api/v1/health', headers: upgrade }, 404, catalogue('not_found')],
      [
        'a websocket handshake on a screen of the web app',
        { method: 'GET', path: '/patients', headers: upgrade },
        404,
        catalogue('not_found'),
      ],
      ['a missing static asset', { method: 'GET', path: '/assets/nada-1.js' }, 404, catalogue('not_found')],
      ['a static path climbing out of the build', { method: 'GET', path: '/assets/..%2f..%2fetc%2fpasswd' }, 404, catalogue('not_found')],
      ['a missing file outside a screen', { method: 'GET', path: '/robots.txt' }, 404, catalogue('not_found')],
      [
        'a body shorter than its Content-Length (the client stopped)',
        {
          method: 'PATCH',
          path: '/api/v1/me',
          headers: { ...json, authorization: `Bearer ${owner.accessToken}` },
          body: Buffer.from('{"a":'),
          contentLength: 50,
          thenStop: true,
        },
        400,
        catalogue('request_malformed'),
      ],
    ];
    const seen = [];
    for (const [what, req] of cases) {
      const answer = await rawRequest(base, req);
      seen.push([what, answer.status, answer.body ? (JSON.parse(answer.body) as unknown) : answer.body]);
    }
    expect(seen).toEqual(cases.map(([what, , status, body]) => [what, status, body]));
  }, 60_000);

  it('from the HTTP parser, before any route: a request line it cannot read, headers too large', async () => {
    expect(answerOf(await written('HOLA\r\n\r\n'))).toEqual({ status: 400, body: catalogue('request_malformed') });
    expect(answerOf(await written(`GET / HTTP/1.1\r\nHost: x\r\nX-Grande: ${'a'.repeat(20_000)}\r\n\r\n`))).toEqual({
      status: 431,
      body: catalogue('request_too_large'),
    });
  });

  it('from the rate limiter', async () => {
    const statuses = [];
    let last: unknown;
    for (let i = 0; i < 4; i++) {
      const answer = await rawRequest(base, {
        method: 'GET',
        path: `/api/v1/realms/therapists/password/challenge?email=forma${i}@divan.test`,
      });
      statuses.push(answer.status);
      last = answer.body ? JSON.parse(answer.body) : null;
    }
    expect(statuses).toEqual([204, 204, 204, 429]);
    expect(last).toEqual(catalogue('too_many_requests'));
  });
});
