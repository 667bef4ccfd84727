import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { withWorkspace, type Therapist } from '../../test/workspace-fixtures';
import { png } from '../../test/images';
import { XLSX_TYPE, xlsx } from '../../test/spreadsheets';
import { rawRequest } from '../../test/raw-http';
import { readFixture } from '../../../../../fixtures';
import { INSTALLATION_MARKER } from '../storage/installation';

/** Uploads take one whole file: a second file is refused (not silently dropped), a picture cut short too. */
let t: TestApp;
let owner: Therapist;
let ws: Workspace;
let W: string;
let P: string;

beforeAll(async () => {
  t = await createTestApp();
  const set = await withWorkspace(t, 'Consulta Subidas', {
    owner: { email: 'subidas@divan.test', firstName: 'Subidas' },
    patient: { firstName: 'Sara' },
  });
  ({ owner, ws } = set);
  W = `/api/v1/workspaces/${ws.id}`;
  P = `${W}/patients/${set.patientId}`;
});
afterAll(() => t?.close());

type Part = { name: string; filename?: string; type?: string; data: Buffer | string };
function form(parts: Part[]) {
  const b = 'subidaBoundary';
  const payload = Buffer.concat([
    ...parts.flatMap((p) => [
      Buffer.from(
        `--${b}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`,
      ),
      Buffer.from(p.data),
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${b}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${b}`, authorization: `Bearer ${owner.accessToken}` } };
}
const send = (method: 'PUT' | 'POST', url: string, parts: Part[]) => t.app.inject({ method, url, ...form(parts) });

describe('a second file in one upload is too_many_files on every upload route', () => {
  it('pictures, logos, documents, Word and Excel imports', async () => {
    const image = png(8, 8);
    const routes: [method: 'PUT' | 'POST', url: string, file: Part][] = [
      ['PUT', '/api/v1/me/picture', { name: 'file', filename: 'a.png', type: 'image/png', data: image }],
      ['PUT', '/api/v1/me/logo', { name: 'file', filename: 'a.png', type: 'image/png', data: image }],
      ['PUT', `${W}/logo`, { name: 'file', filename: 'a.png', type: 'image/png', data: image }],
      ['POST', `${P}/documents`, { name: 'file', filename: 'nota.txt', type: 'text/plain', data: 'Nota' }],
      ['POST', `${P}/history/import-docx`, { name: 'file', filename: 'n.docx', type: 'application/octet-stream', data: 'PK\u0003\u0004' }],
      ['POST', `${W}/patient-imports`, { name: 'file', filename: 'p.xlsx', type: XLSX_TYPE, data: await xlsx([['Nombre'], ['Ana']]) }],
    ];
    for (const [method, url, file] of routes) {
      const res = await send(method, url, [file, { ...file, filename: `otro-${file.filename!}` }]);
      expect({ url, status: res.statusCode, body: json(res) }).toEqual({
        url,
        status: 400,
        body: { code: 'too_many_files', message: 'Demasiados archivos.' },
      });
    }
    // Nothing of a refused upload is kept.
    expect(json<unknown[]>(await t.get(`${P}/documents`, { token: owner.accessToken }))).toEqual([]);
    expect(json<{ pictureUrl: string | null }>(await t.get('/api/v1/me', { token: owner.accessToken })).pictureUrl).toBeNull();
  });

  it('while one file, with its fields, is still taken', async () => {
    const doc = await send('POST', `${P}/documents`, [
      { name: 'tags', data: 'informe' },
      { name: 'file', filename: 'nota.txt', type: 'text/plain', data: 'Nota' },
    ]);
    expect(doc.statusCode, doc.body).toBe(201);
    expect(json<{ tags: string[] }>(doc).tags).toEqual(['informe']);
    const picture = await send('PUT', '/api/v1/me/picture', [{ name: 'file', filename: 'a.png', type: 'image/png', data: png(8, 8) }]);
    expect(picture.statusCode, picture.body).toBe(200);
  });
});

describe('an image is decoded before it is kept', () => {
  it('a PNG cut after 30 bytes is a Spanish 400 as a picture, a logo and a workspace logo', async () => {
    const cut = png(8, 8).subarray(0, 30);
    for (const [url] of [['/api/v1/me/picture'], ['/api/v1/me/logo'], [`${W}/logo`]]) {
      const res = await send('PUT', url!, [{ name: 'file', filename: 'a.png', type: 'image/png', data: cut }]);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
      expect(json(res)).toMatchObject({ code: 'invalid_argument', message: 'La imagen está dañada o incompleta. Vuelve a subirla.' });
    }
  });
});

/** Every file under DATA_DIR/files (half-written `.tmp` ones included) but the installation's marker. */
function storedFiles(root: string, dir = root): string[] {
  const entries = (() => {
    try {
      return readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
  })();
  return entries
    .flatMap((e) => (e.isDirectory() ? storedFiles(root, join(dir, e.name)) : [relative(root, join(dir, e.name))]))
    .filter((f) => f !== INSTALLATION_MARKER);
}

describe('an upload cut before its closing boundary (a phone that lost its connection), over a real socket', () => {
  it('is a Spanish 400 upload_incomplete on every upload route, cut anywhere, and nothing of it is stored', async () => {
    const files = join(t.config.dataDir, 'files');
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const image = png(64, 64);
    const routes: [method: string, url: string, file: Part, listed: () => Promise<unknown>][] = [
      [
        'PUT',
        '/api/v1/me/picture',
        { name: 'file', filename: 'a.png', type: 'image/png', data: image },
        async () => json<{ pictureUrl: unknown }>(await t.get('/api/v1/me', { token: owner.accessToken })).pictureUrl,
      ],
      [
        'PUT',
        '/api/v1/me/logo',
        { name: 'file', filename: 'a.png', type: 'image/png', data: image },
        async () => json<{ logoUrl: unknown }>(await t.get('/api/v1/me', { token: owner.accessToken })).logoUrl,
      ],
      [
        'PUT',
        `${W}/logo`,
        { name: 'file', filename: 'a.png', type: 'image/png', data: image },
        async () => json<{ pictureUrl: unknown }>(await t.get(W, { token: owner.accessToken })).pictureUrl,
      ],
      [
        'POST',
        `${P}/history/import-docx`,
        { name: 'file', filename: 'n.docx', type: 'application/octet-stream', data: readFixture('historia-clinica.docx') },
        async () => json(await t.get(`${P}/history`, { token: owner.accessToken })),
      ],
      [
        'POST',
        `${W}/patient-imports`,
        { name: 'file', filename: 'p.xlsx', type: XLSX_TYPE, data: await xlsx([['Nombre'], ['Ana']]) },
        async () => null,
      ],
      [
        'POST',
        `${P}/documents`,
        { name: 'file', filename: 'nota.txt', type: 'text/plain', data: 'Nota de una sesión' },
        async () => json(await t.get(`${P}/documents`, { token: owner.accessToken })),
      ],
    ];
    for (const [method, url, file, listed] of routes) {
      const { payload, headers } = form([{ name: 'tags', data: 'informe' }, file]);
      const closing = Buffer.from('--subidaBoundary--\r\n');
      const cuts = {
        'after the whole file': payload.subarray(0, payload.length - closing.length),
        'inside the file': payload.subarray(0, payload.length - closing.length - 8),
        'inside the headers of its part': payload.subarray(0, payload.indexOf('filename=')),
      };
      const [storedBefore, listedBefore] = [storedFiles(files), await listed()];
      for (const [where, body] of Object.entries(cuts)) {
        const answer = await rawRequest(base, { method, path: url, headers, body });
        expect({ url, where, status: answer.status, body: JSON.parse(answer.body) as unknown, socketError: answer.socketError }).toEqual({
          url,
          where,
          status: 400,
          body: {
            code: 'upload_incomplete',
            message: 'El archivo no ha llegado completo o el formulario de subida está mal formado. Vuelve a subirlo.',
          },
          socketError: null,
        });
      }
      // Nothing kept: no file (not even a half-written temporary one), no row.
      expect({ url, stored: storedFiles(files), listed: await listed() }).toEqual({ url, stored: storedBefore, listed: listedBefore });
      // Sent whole, the same form is taken: the cut was refused, not the route.
      const whole = await rawRequest(base, { method, path: url, headers, body: payload });
      expect({ url, status: whole.status }).toEqual({ url, status: method === 'PUT' ? 200 : 201 });
    }
  }, 120_000);
});
