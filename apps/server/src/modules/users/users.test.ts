import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileResponse } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { signUpConfirmed } from '../../test/auth-flows';
import { multipart, png } from '../../test/images';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await signUpConfirmed(t, 'irene@example.com', 'Irene')).accessToken;
});
afterAll(() => t?.close());

const upload = (kind: 'picture' | 'logo', data: Buffer, type = 'image/png', field = 'file') => {
  const { payload, headers } = multipart(field, 'imagen.png', type, data);
  return t.app.inject({ method: 'PUT', url: `/api/v1/me/${kind}`, payload, headers: { ...headers, authorization: `Bearer ${token}` } });
};

describe('therapist profile', () => {
  it('reads and updates the profile of spec §3', async () => {
    const me = json(await t.get('/api/v1/me', { token }));
    expect(me).toMatchObject({ firstName: 'Irene', email: 'irene@example.com', lastName: null, pictureUrl: null });
    const res = await t.patch(
      '/api/v1/me',
      {
        firstName: 'Irene',
        lastName: 'Martín Ruiz',
        phone: '+34 600 111 222',
        biography: 'Psicóloga sanitaria.',
        birthdate: '1985-04-12',
        registrationNumber: 'M-12345',
      },
      { token },
    );
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ lastName: 'Martín Ruiz', birthdate: '1985-04-12', registrationNumber: 'M-12345' });
    expect(json(await t.patch('/api/v1/me', { phone: '' }, { token }))).toMatchObject({ phone: null, lastName: 'Martín Ruiz' });
    // Served from the profile cache, which every change refreshes.
    expect(json(await t.get('/api/v1/me', { token }))).toMatchObject({
      phone: null,
      lastName: 'Martín Ruiz',
      registrationNumber: 'M-12345',
    });
  });

  it('gives other modules every column of a user but the password hash', async () => {
    const id = json<{ id: string }>(await t.get('/api/v1/me', { token })).id;
    const [user] = await t.app.services.users.findManyByIds([id]);
    expect(user).toMatchObject({ id, email: 'irene@example.com', firstName: 'Irene' });
    expect(user).not.toHaveProperty('passwordHash');
    expect((await t.app.services.users.findById(id))?.passwordHash).toMatch(/^\$argon2/);
  });

  it('writes GET /me with its compiled contract exactly as Zod writes the same profile', async () => {
    await t.patch('/api/v1/me', { biography: 'Comillas " y \\ barras, acentos: ñ €', phone: '' }, { token });
    const res = await t.get('/api/v1/me', { token });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const profile = await t.app.services.users.getProfile(json<{ id: string }>(res).id);
    expect(res.body).toBe(JSON.stringify(profileResponse.parse(profile)));
    // A cached answer is the same bytes.
    expect((await t.get('/api/v1/me', { token })).body).toBe(res.body);
  });

  it('refuses invalid fields with Spanish messages and never changes the email here', async () => {
    const bad = await t.patch('/api/v1/me', { firstName: '', birthdate: '2999-01-01', phone: 'abc' }, { token });
    expect(bad.statusCode).toBe(400);
    expect(json<{ code: string; fields: { path: string; message: string }[] }>(bad).fields).toEqual(
      expect.arrayContaining([
        { path: 'firstName', message: 'El campo nombre es obligatorio' },
        { path: 'birthdate', message: 'Fecha inválida' },
        { path: 'phone', message: 'Teléfono inválido' },
      ]),
    );
    expect((await t.patch('/api/v1/me', { email: 'otra@example.com' }, { token })).statusCode).toBe(400);
    expect(json(await t.get('/api/v1/me', { token })).email).toBe('irene@example.com');
  });

  it('stores a picture checked by content and serves it', async () => {
    const res = await upload('picture', png(40, 30));
    expect(res.statusCode).toBe(200);
    const url = json<{ pictureUrl: string }>(res).pictureUrl;
    expect(url).toMatch(/^\/api\/v1\/files\/[0-9a-f-]{36}$/);
    const img = await t.get(url);
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.rawPayload.equals(png(40, 30))).toBe(true);
    // Replacing it deletes the old file.
    const next = json<{ pictureUrl: string }>(await upload('picture', png(10, 10)));
    expect((await t.get(url)).statusCode).toBe(404);
    expect(json(await t.del('/api/v1/me/picture', { token })).pictureUrl).toBeNull();
    expect((await t.get(next.pictureUrl)).statusCode).toBe(404);
  });

  it('refuses a non-image, a wrong field, an oversized file and a non-square logo', async () => {
    const fake = await upload('picture', Buffer.from('%PDF-1.4 not an image at all'), 'image/png');
    expect({ s: fake.statusCode, c: json(fake).code }).toEqual({ s: 415, c: 'invalid_type' });
    expect(json(await upload('picture', png(5, 5), 'image/png', 'otro')).code).toBe('unexpected_file');
    const big = await upload('picture', Buffer.concat([png(5, 5), Buffer.alloc(2 * 1024 * 1024 + 10)]));
    expect({ s: big.statusCode, c: json(big).code }).toEqual({ s: 413, c: 'file_too_large' });
    const wide = await upload('logo', png(60, 40));
    expect({ s: wide.statusCode, c: json(wide).code, m: json(wide).message }).toEqual({
      s: 400,
      c: 'invalid_argument',
      m: 'El logo debe ser cuadrado',
    });
    const square = await upload('logo', png(64, 64));
    expect(json<{ logoUrl: string }>(square).logoUrl).toMatch(/^\/api\/v1\/files\//);
    const noMultipart = await t.put('/api/v1/me/logo', {}, { token });
    expect(noMultipart.statusCode).toBeGreaterThanOrEqual(400);
    expect(noMultipart.statusCode).toBeLessThan(500);
  });
});
