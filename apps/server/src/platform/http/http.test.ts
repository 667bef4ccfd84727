import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { accessPlugin } from '../auth/access';
import { createTokenService } from '../auth/tokens';
import { AUTH, createTestApp, json, type TestApp } from '../../test/test-app';

const openapiFile = resolve(dirname(fileURLToPath(import.meta.url)), '../../../openapi.json');

describe('rate limits on auth calls', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimit: { perIpPerMinute: 4, perEmailPer15Min: 2 } });
  });
  afterAll(() => t?.close());

  it('limits each email, whatever the IP', async () => {
    const body = { email: 'limite@example.com', password: 'Consulta2026' };
    const codes = [];
    for (let i = 0; i < 3; i++)
      codes.push(
        json((await t.app.inject({ method: 'POST', url: `${AUTH}/code`, payload: body, remoteAddress: `10.0.0.${i}` })) as never).code,
      );
    expect(codes).toEqual(['user_not_found', 'user_not_found', 'too_many_requests']);
  });

  it('limits each IP per call', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await t.get(`${AUTH}/password/challenge?email=ip${i}@example.com`)).statusCode);
    expect(statuses).toEqual([204, 204, 204, 204, 429]);
    const res = await t.get(`${AUTH}/password/challenge?email=otra@example.com`);
    expect(json(res)).toMatchObject({ code: 'too_many_requests', message: expect.stringContaining('Demasiados intentos') });
  });
});

describe('the public links are rate limited per IP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimit: { perIpPerMinute: 3, perEmailPer15Min: 2 } });
  });
  afterAll(() => t?.close());

  it('a consent signing link: guessing tokens from one IP is cut off, another IP is not', async () => {
    const view = (i: number, ip = '10.1.0.1') =>
      t.app.inject({ method: 'GET', url: `/api/v1/public/consents/${String(i).padStart(43, 'A')}`, remoteAddress: ip });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await view(i)).statusCode);
    expect(statuses).toEqual([404, 404, 404, 429]);
    expect((await view(9, '10.1.0.2')).statusCode).toBe(404);
    for (let i = 0; i < 3; i++)
      await t.app.inject({ method: 'POST', url: `/api/v1/public/consents/${'B'.repeat(43)}/sign`, payload: {}, remoteAddress: '10.1.0.3' });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/v1/public/consents/${'B'.repeat(43)}/sign`,
          payload: {},
          remoteAddress: '10.1.0.3',
        })
      ).statusCode,
    ).toBe(429);
  });
});

describe('routes and contract', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('refuses to start with a route that declares no access', async () => {
    const app = Fastify({ logger: false });
    await app.register(accessPlugin, { tokens: createTokenService('x'.repeat(32)) });
    app.get('/api/v1/forgotten', async () => 'oops');
    await expect(app.ready()).rejects.toThrow('Routes without declared access: GET /api/v1/forgotten');
  });

  it('answers unknown API paths with not_found in JSON', async () => {
    const res = await t.get('/api/v1/nada');
    expect({ s: res.statusCode, b: json(res) }).toEqual({ s: 404, b: { code: 'not_found', message: 'No encontrado.' } });
  });

  it('serves the OpenAPI document, identical to the committed copy (UPDATE_OPENAPI=1 rewrites it)', async () => {
    const res = await t.get('/api/v1/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = json<{ openapi: string; paths: Record<string, unknown> }>(res);
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([`${AUTH}/code`, `${AUTH}/login`, '/api/v1/me']));
    const generated = JSON.stringify(doc, null, 2) + '\n';
    if (process.env.UPDATE_OPENAPI === '1') writeFileSync(openapiFile, generated);
    expect(generated, 'apps/server/openapi.json is stale: run UPDATE_OPENAPI=1 npx vitest run apps/server/src/platform/http').toBe(
      readFileSync(openapiFile, 'utf8'),
    );
    expect((await t.get('/api/docs/', { headers: { accept: 'text/html' } })).statusCode).toBe(200);
  });
});
