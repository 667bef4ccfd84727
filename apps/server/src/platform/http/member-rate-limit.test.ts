import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { therapist, withWorkspace, type Therapist } from '../../test/workspace-fixtures';
import { multipart, png } from '../../test/images';

/** Uploads and exports are limited per member per minute (here 3 uploads and 2 exports). */
let t: TestApp;
let owner: Therapist;
let other: Therapist;
let W: string;
let P: string;

beforeAll(async () => {
  t = await createTestApp({ rateLimit: { perIpPerMinute: 10_000, perEmailPer15Min: 10_000, uploadsPerMinute: 3, exportsPerMinute: 2 } });
  const set = await withWorkspace(t, 'Consulta Límites', {
    owner: { email: 'limites@divan.test', firstName: 'Límites' },
    patient: { firstName: 'Sara' },
  });
  owner = set.owner;
  other = await therapist(t, 'otra@divan.test', 'Otra');
  W = `/api/v1/workspaces/${set.ws.id}`;
  P = `${W}/patients/${set.patientId}`;
});
afterAll(() => t?.close());

const upload = (token: string, url: string, method: 'PUT' | 'POST', name: string, type: string, data: Buffer) => {
  const { payload, headers } = multipart('file', name, type, data);
  return t.app.inject({ method, url, payload, headers: { ...headers, authorization: `Bearer ${token}` } });
};
const picture = (token: string) => upload(token, '/api/v1/me/picture', 'PUT', 'a.png', 'image/png', png(8, 8));
const document = (token: string) => upload(token, `${P}/documents`, 'POST', 'nota.txt', 'text/plain', Buffer.from('Nota'));

describe('uploads per member', () => {
  it('share one budget across the upload routes; past it a Spanish 429, and nothing is kept', async () => {
    const statuses = [
      (await picture(owner.accessToken)).statusCode,
      (await document(owner.accessToken)).statusCode,
      (await picture(owner.accessToken)).statusCode,
    ];
    expect(statuses).toEqual([200, 201, 200]);
    const refused = await document(owner.accessToken);
    expect(refused.statusCode).toBe(429);
    expect(json(refused)).toEqual({
      code: 'too_many_requests',
      message: 'Has subido demasiados archivos seguidos. Espera un minuto y vuelve a intentarlo.',
    });
    expect(json<unknown[]>(await t.get(`${P}/documents`, { token: owner.accessToken }))).toHaveLength(1);
  });

  it('another member keeps their own budget', async () => {
    expect((await picture(other.accessToken)).statusCode).toBe(200);
  });
});

describe('exports per member', () => {
  it('JSON and PDF share one budget', async () => {
    const token = owner.accessToken;
    expect((await t.get(`${P}/export.json`, { token })).statusCode).toBe(200);
    expect((await t.get(`${P}/export.pdf`, { token })).statusCode).toBe(200);
    const refused = await t.get(`${P}/export.json`, { token });
    expect(refused.statusCode).toBe(429);
    expect(json<{ code: string; message: string }>(refused)).toEqual({
      code: 'too_many_requests',
      message: 'Has pedido demasiadas exportaciones seguidas. Espera un minuto y vuelve a intentarlo.',
    });
    // Other calls are not counted.
    expect((await t.get(P, { token })).statusCode).toBe(200);
  });
});
