import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { png } from '../../test/images';
import { XLSX_TYPE, xlsx } from '../../test/spreadsheets';

/** Uploads take one whole file: a second file is refused (not silently dropped), a picture cut short too. */
let t: TestApp;
let owner: Therapist;
let ws: Workspace;
let W: string;
let P: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await therapist(t, 'subidas@divan.test', 'Subidas');
  ws = await createWorkspace(t, owner, 'Consulta Subidas');
  W = `/api/v1/workspaces/${ws.id}`;
  P = `${W}/patients/${json<{ id: string }>(await t.post(`${W}/patients`, { firstName: 'Sara' }, { token: owner.accessToken })).id}`;
});
afterAll(() => t?.close());

type Part = { name: string; filename?: string; type?: string; data: Buffer | string };
function form(parts: Part[]) {
  const b = 'subidaBoundary';
  const payload = Buffer.concat([
    ...parts.flatMap((p) => [
      Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`),
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
      expect({ url, status: res.statusCode, body: json(res) }).toEqual({ url, status: 400, body: { code: 'too_many_files', message: 'Demasiados archivos.' } });
    }
    // Nothing of a refused upload is kept.
    expect(json<unknown[]>(await t.get(`${P}/documents`, { token: owner.accessToken }))).toEqual([]);
    expect(json<{ pictureUrl: string | null }>(await t.get('/api/v1/me', { token: owner.accessToken })).pictureUrl).toBeNull();
  });

  it('while one file, with its fields, is still taken', async () => {
    const doc = await send('POST', `${P}/documents`, [{ name: 'tags', data: 'informe' }, { name: 'file', filename: 'nota.txt', type: 'text/plain', data: 'Nota' }]);
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
