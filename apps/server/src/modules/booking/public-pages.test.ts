import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BookingEmbed,
  BookingService,
  CreateBookingServiceBody,
  PublicServicePage,
  PublicTherapistPage,
  PublicWorkspaceIndex,
  Workspace,
} from '@divan/core';
import { png } from '../../test/images';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist, withWorkspace, type Therapist } from '../../test/workspace-fixtures';

let t: TestApp;
let owner: Therapist;
let colleague: Therapist;
let quiet: Therapist;
let solo: Therapist;
let ws: Workspace;
let basic: Workspace;
let active: BookingService;
let paused: BookingService;
let colleagues: BookingService;

const P = '/api/v1/public/reservations';
const SERVICE: CreateBookingServiceBody = {
  title: 'Primera consulta',
  description: 'Una sesión para conocernos.',
  schedule: { 1: [{ from: '09:00', to: '14:00' }] },
  timeZone: 'Europe/Madrid',
  priceCents: 6000,
  modality: 'online',
  durationMinutes: 50,
};
const refused = (res: { statusCode: number; body: string }, status: number, code: string) => {
  expect(res.statusCode, res.body).toBe(status);
  const b = json<{ code: string; message: string; fields?: { path: string; message: string }[] }>(res as never);
  expect(b.code).toBe(code);
  return b;
};
const INLINE = 'document.documentElement.dataset.theme="light"';

beforeAll(async () => {
  // A built web app with its public booking entry, as Vite writes it.
  const dist = join(tmpdir(), `divan-dist-${crypto.randomUUID()}`);
  mkdirSync(dist, { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Diván</title><div id="root"></div>');
  writeFileSync(join(dist, 'booking.html'), `<!doctype html><title>Reserva</title><script>${INLINE}</script><div id="booking"></div>`);
  writeFileSync(join(dist, 'embed.js'), '(function(){})();');
  t = await createTestApp({ webDist: dist });
  ({
    owner,
    ws,
    members: { colleague, quiet },
  } = await withWorkspace(t, 'Clínica Páginas', {
    owner: { email: 'olga@paginas.test', firstName: 'Olga' },
    plan: { id: 'team', seats: 10 },
    members: {
      colleague: { email: 'marta@paginas.test', firstName: 'Marta', role: 'Terapeuta' },
      quiet: { email: 'quieta@paginas.test', firstName: 'Quieta', role: 'Terapeuta' },
    },
  }));
  solo = await therapist(t, 'solo@paginas.test', 'Sol');
  basic = await createWorkspace(t, solo, 'Consulta Básica', 'freelance');
  await t.app.services.workspaces.setPlan(basic.id, { id: 'basic' });
  await t.app.services.users.updateProfile(owner.userId, { biography: 'Psicóloga sanitaria.', phone: '+34600111222' });
  await t.app.services.users.setImage(owner.userId, 'picture', png(64, 64));
  const S = `/api/v1/workspaces/${ws.id}/booking-services`;
  active = json(await t.post(S, SERVICE, { token: owner.accessToken }));
  paused = json(await t.post(S, { ...SERVICE, title: 'Pareja', status: 'paused' }, { token: owner.accessToken }));
  colleagues = json(await t.post(S, { ...SERVICE, title: 'Infancia' }, { token: colleague.accessToken }));
  await t.post(S, { ...SERVICE, title: 'En pausa', status: 'paused' }, { token: quiet.accessToken });
}, 60_000);
afterAll(() => t?.close());

describe('the public pages, without an account', () => {
  it('the index lists the therapists with an active service, their active services only, and no email or phone', async () => {
    const res = await t.get(`${P}/${ws.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=30');
    const index = json<PublicWorkspaceIndex>(res);
    expect(index.workspace).toEqual({ id: ws.id, name: 'Clínica Páginas', logoUrl: null });
    expect(index.therapists.map((x) => [x.name, x.services.map((s) => s.title)])).toEqual([
      ['Marta', ['Infancia']],
      ['Olga', ['Primera consulta']],
    ]);
    const olga = index.therapists.find((x) => x.id === owner.userId)!;
    expect(olga).toMatchObject({
      biography: 'Psicóloga sanitaria.',
      services: [{ id: active.id, priceCents: 6000, payment: 'none', allowNewPatients: true, location: null }],
    });
    expect(res.body).not.toContain('@paginas.test');
    expect(res.body).not.toContain('600111222');
    expect(res.body).not.toContain(paused.id);
    // The picture loads for anyone.
    const picture = await t.get(olga.pictureUrl!);
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/png');
  });

  it('a therapist and a service read the same, the service with its zone and notice', async () => {
    const one = json<PublicTherapistPage>(await t.get(`${P}/${ws.id}/${colleague.userId}`));
    expect(one.therapist).toMatchObject({ id: colleague.userId, name: 'Marta', pictureUrl: null, services: [{ id: colleagues.id }] });
    const res = await t.get(`${P}/${ws.id}/${owner.userId}/${active.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const page = json<PublicServicePage>(res);
    expect(page.therapist).toEqual({
      id: owner.userId,
      name: 'Olga',
      pictureUrl: expect.stringMatching(/^\/api\/v1\/files\//),
      biography: 'Psicóloga sanitaria.',
    });
    expect(page.service).toMatchObject({
      id: active.id,
      title: 'Primera consulta',
      timeZone: 'Europe/Madrid',
      minNotice: { amount: 24, unit: 'hours' },
      maxNotice: { amount: 2, unit: 'months' },
    });
  });

  it('unknown, paused or mismatched: the same 404, whatever exists elsewhere', async () => {
    const ghost = crypto.randomUUID();
    const answers = [
      await t.get(`${P}/${ghost}`),
      await t.get(`${P}/${basic.id}`),
      await t.get(`${P}/${ws.id}/${quiet.userId}`),
      await t.get(`${P}/${ws.id}/${ghost}`),
      await t.get(`${P}/${basic.id}/${owner.userId}`),
      await t.get(`${P}/${ws.id}/${owner.userId}/${paused.id}`),
      await t.get(`${P}/${ws.id}/${colleague.userId}/${active.id}`),
      await t.get(`${P}/${basic.id}/${owner.userId}/${active.id}`),
      await t.get(`${P}/${ws.id}/${owner.userId}/${ghost}`),
    ];
    for (const res of answers) refused(res, 404, 'public_service_not_found');
    expect(new Set(answers.map((r) => r.body)).size).toBe(1);
    // Garbage in the link is one more link that leads nowhere: the same 404 (issue 24).
    refused(await t.get(`${P}/not-a-uuid`), 404, 'public_service_not_found');
  });
});

describe('embed settings', () => {
  const E = (id: string) => `/api/v1/workspaces/${id}/booking-embed`;

  it('start empty, are saved normalised and without repeats, and read back', async () => {
    expect(json<BookingEmbed>(await t.get(E(ws.id), { token: owner.accessToken }))).toEqual({ allowedOrigins: [], embeddingAllowed: true });
    const res = await t.put(
      E(ws.id),
      { allowedOrigins: ['https://www.consulta.es/', 'https://www.consulta.es', 'http://localhost:8080'] },
      { token: owner.accessToken },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(json<BookingEmbed>(res).allowedOrigins).toEqual(['https://www.consulta.es', 'http://localhost:8080']);
    // A therapist reads them (to copy the snippet), but may not change them.
    expect(json<BookingEmbed>(await t.get(E(ws.id), { token: colleague.accessToken })).allowedOrigins).toEqual([
      'https://www.consulta.es',
      'http://localhost:8080',
    ]);
    refused(await t.put(E(ws.id), { allowedOrigins: [] }, { token: colleague.accessToken }), 403, 'access_denied');
  });

  it('refuses what is not an origin, in Spanish at its field', async () => {
    for (const bad of [
      'https://www.consulta.es/reservas',
      'ftp://consulta.es',
      'consulta.es',
      'https://a:b@consulta.es',
      'https://x.es; script-src *',
    ]) {
      const b = refused(await t.put(E(ws.id), { allowedOrigins: [bad] }, { token: owner.accessToken }), 400, 'invalid_argument');
      expect(b.fields).toContainEqual({
        path: 'allowedOrigins.0',
        message: 'Escribe solo el origen de tu web, como https://www.tuconsulta.es',
      });
    }
    const many = Array.from({ length: 11 }, (_, i) => `https://web${i}.es`);
    refused(await t.put(E(ws.id), { allowedOrigins: many }, { token: owner.accessToken }), 400, 'invalid_argument');
  });

  it('a plan without embedding (Basic) is refused with its message, and reads as not allowed', async () => {
    const b = refused(
      await t.put(E(basic.id), { allowedOrigins: ['https://www.sol.es'] }, { token: solo.accessToken }),
      403,
      'public_service_embedding_not_allowed',
    );
    expect(b.message).toBe('Tu plan no permite insertar la reserva online en tu web.');
    expect(json<BookingEmbed>(await t.get(E(basic.id), { token: solo.accessToken }))).toEqual({
      allowedOrigins: [],
      embeddingAllowed: false,
    });
  });
});

describe('the public booking page', () => {
  const csp = (res: { headers: Record<string, unknown> }) => String(res.headers['content-security-policy']);

  it("is booking.html, framed by the workspace's allowed origins, without X-Frame-Options, its inline script allowed", async () => {
    const res = await t.get(`/v1/reservations/${ws.id}/${owner.userId}/${active.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('id="booking"');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(csp(res)).toContain("frame-ancestors 'self' https://www.consulta.es http://localhost:8080");
    expect(csp(res)).toContain("default-src 'self'");
    expect(csp(res)).toContain(`'sha256-${createHash('sha256').update(INLINE).digest('base64')}'`);
    expect(res.headers['x-frame-options']).toBeUndefined();
  });

  it("is framed by 'self' only for the manage page, a workspace without origins, one whose plan does not allow it, or an unknown one", async () => {
    for (const url of [
      `/v1/reservations/manage/${'a'.repeat(32)}`,
      `/v1/reservations/${basic.id}`,
      `/v1/reservations/${crypto.randomUUID()}`,
      '/v1/reservations/nada',
    ]) {
      const res = await t.get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('id="booking"');
      expect(csp(res), url).toMatch(/frame-ancestors 'self'(;|$)/);
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
    }
    // The plan lapses: the origins stay listed but frame nothing.
    await t.app.services.workspaces.setPlan(ws.id, { id: 'basic' });
    const lapsed = await t.get(`/v1/reservations/${ws.id}`);
    expect(csp(lapsed)).toMatch(/frame-ancestors 'self'(;|$)/);
    expect(json<BookingEmbed>(await t.get(`/api/v1/workspaces/${ws.id}/booking-embed`, { token: owner.accessToken }))).toMatchObject({
      embeddingAllowed: false,
    });
    await t.app.services.workspaces.setPlan(ws.id, { id: 'team', seats: 10 });
  });

  it('the rest of the app is still index.html, framed by nobody else', async () => {
    const res = await t.get('/patients');
    expect(res.body).toContain('id="root"');
    expect(csp(res)).toMatch(/frame-ancestors 'self'(;|$)/);
  });

  it('embed.js loads on any website (CORP cross-origin); other files stay same-origin', async () => {
    const res = await t.get('/embed.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect((await t.get('/booking.html')).headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});
