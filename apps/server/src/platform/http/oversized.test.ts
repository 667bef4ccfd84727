import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_MAX_BYTES, IMAGE_MAX_BYTES, errorMessage } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { withWorkspace, type Therapist } from '../../test/workspace-fixtures';
import { operationsOf, validCase, type OpenApiDoc } from '../../test/fuzz/fuzz-cases';
import { rawRequest, type RawAnswer } from '../../test/raw-http';

/**
 * A body past its limit is answered 413 `{code, message}` in Spanish — «La petición es demasiado grande»
 * for JSON, the file's own message on an upload — while the client is still sending, and the connection
 * stays open until the client has sent it all: over a real socket the client reads the answer, writes
 * the rest without a broken pipe or a reset, and sees the connection closed in order (issue 24).
 */
let t: TestApp;
let owner: Therapist;
let base: string;
let W: string;
let ids: Record<string, string>;
let P: string;
let doc: OpenApiDoc;

beforeAll(async () => {
  t = await createTestApp();
  const set = await withWorkspace(t, 'Consulta Grande', {
    owner: { email: 'grande@divan.test', firstName: 'Grande' },
    patient: { firstName: 'Sara' },
  });
  owner = set.owner;
  W = `/api/v1/workspaces/${set.ws.id}`;
  P = `${W}/patients/${set.patientId}`;
  // The ids a route checks before it reads its body (its workspace's membership); the others may be any.
  ids = { workspaceId: set.ws.id, patientId: set.patientId };
  doc = json<OpenApiDoc>(await t.get('/api/v1/openapi.json'));
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);
afterAll(() => t?.close());

const MB = 1024 * 1024;
/** Sent before the answer: past the largest body limit (1 MB); the rest only once the answer has been read. */
const HEAD = Buffer.from(`{"relleno":"${'a'.repeat(MB + 16)}`);
const REST = Buffer.from(`${'a'.repeat(256 * 1024)}"}`);

const shapeOf = (a: RawAnswer) => ({
  status: a.status,
  body: a.body ? (JSON.parse(a.body) as unknown) : null,
  socketError: a.socketError,
  connection: a.headers.connection,
});

describe('a JSON body past its limit', () => {
  it('is a 413 «La petición es demasiado grande» on every route that takes a JSON body, read to its end before the connection closes', async () => {
    const ops = operationsOf(doc).filter((op) => op.requestBody?.content['application/json']);
    expect(ops.length).toBeGreaterThan(50);
    const wrong: unknown[] = [];
    for (const op of ops) {
      const c = validCase(op, { idFor: (name) => ids[name], headers: { authorization: `Bearer ${owner.accessToken}` } });
      const answer = await rawRequest(base, {
        method: op.method,
        path: c.url,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.accessToken}` },
        body: HEAD,
        afterAnswer: REST,
      });
      const seen = shapeOf(answer);
      // The patient's routes refuse a therapist's token before reading the body: that answer must arrive just as well.
      const expected =
        seen.status === 401
          ? {
              status: 401,
              body: { code: 'invalid_access_token', message: errorMessage('invalid_access_token') },
              socketError: null,
              connection: 'close',
            }
          : {
              status: 413,
              body: { code: 'request_too_large', message: 'La petición es demasiado grande.' },
              socketError: null,
              connection: 'close',
            };
      if (JSON.stringify(seen) !== JSON.stringify(expected)) wrong.push({ route: `${op.method} ${op.path}`, seen });
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  it('also when the client announces a Content-Length past the limit (refused before a byte is read)', async () => {
    const answer = await rawRequest(base, {
      method: 'PATCH',
      path: '/api/v1/me',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.accessToken}` },
      body: Buffer.from('{"biography":"'),
      afterAnswer: Buffer.from(`${'b'.repeat(2 * MB)}"}`),
    });
    expect(shapeOf(answer)).toEqual({
      status: 413,
      body: { code: 'request_too_large', message: 'La petición es demasiado grande.' },
      socketError: null,
      connection: 'close',
    });
  });
});

describe('an uploaded file past its limit', () => {
  const boundary = 'grandeBoundary';
  const form = (name: string, type: string, size: number) => {
    const start = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
    );
    return {
      body: Buffer.concat([start, Buffer.alloc(size, 0x41)]),
      afterAnswer: Buffer.concat([Buffer.alloc(512 * 1024, 0x41), Buffer.from(`\r\n--${boundary}--\r\n`)]),
    };
  };
  const upload = (method: string, path: string, f: { body: Buffer; afterAnswer: Buffer }) =>
    rawRequest(base, {
      method,
      path,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${owner.accessToken}` },
      ...f,
    });

  it('is a 413 with the file-size message on the picture, logo and import routes, and the connection closes in order', async () => {
    const routes: [string, string, number][] = [
      ['PUT', '/api/v1/me/picture', IMAGE_MAX_BYTES],
      ['PUT', '/api/v1/me/logo', IMAGE_MAX_BYTES],
      ['PUT', `${W}/logo`, IMAGE_MAX_BYTES],
      ['POST', `${P}/history/import-docx`, 10 * MB],
      ['POST', `${W}/patient-imports`, 10 * MB],
    ];
    for (const [method, path, limit] of routes) {
      const seen = shapeOf(await upload(method, path, form('a.bin', 'application/octet-stream', limit + 1024)));
      expect({ path, ...seen }).toEqual({
        path,
        status: 413,
        body: { code: 'file_too_large', message: 'El archivo es demasiado grande.' },
        socketError: null,
        connection: 'close',
      });
    }
  }, 120_000);

  it('is a 413 with the documents’ limit in the message on a document', async () => {
    const seen = shapeOf(await upload('POST', `${P}/documents`, form('nota.txt', 'text/plain', DOCUMENT_MAX_BYTES + 1024)));
    expect(seen).toEqual({
      status: 413,
      body: { code: 'document_too_large', message: errorMessage('document_too_large').replace('{limit}', String(DOCUMENT_MAX_BYTES / MB)) },
      socketError: null,
      connection: 'close',
    });
    expect(json<unknown[]>(await t.get(`${P}/documents`, { token: owner.accessToken }))).toEqual([]);
  }, 120_000);
});
