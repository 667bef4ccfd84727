import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { LearningAdminVideo, LearningCard, LearningList, LearningMedia, LearningVideo } from '@divan/core';
import { createTokenService } from '../../platform/auth/tokens';
import { createTestApp, type TestApp } from '../../test/test-app';
import { until } from '../../test/until';
import { MediaLinks } from './learning-media';
import {
  A,
  UPLOAD_TOKEN,
  createVideo,
  makeStaff,
  probeSeconds,
  processed,
  publish,
  staffHeaders,
  testVideo,
  upload,
  videoBody,
} from '../../test/learning-fixtures';
import { createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';

// The training library's upload tool and the preview the server enforces (issue 29): the staff-only
// matrix, a file sent in pieces and transcoded by ffmpeg, a preview rendition that decodes to at most its
// seconds, and signed links: the full video never reaches a non-buyer, whatever URL they try.
let t: TestApp;
let staff: Therapist;
let owner: Therapist;
let video: LearningAdminVideo;
const PREVIEW = 3;
const code = (res: { json(): unknown }) => (res.json() as { code: string }).code;
/** A link the server gave, asked of the test app (its path and query). */
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

beforeAll(async () => {
  t = await createTestApp({ learningUploadToken: UPLOAD_TOKEN, learningStaffEmails: ['formacion@divan.test'] });
  [staff, owner] = await Promise.all([therapist(t, 'equipo@divan.test', 'Equipo'), therapist(t, 'ana@consulta.test', 'Ana')]);
  await makeStaff(t, staff);
  video = await createVideo(t, staff, { title: 'El apego en adultos', previewSeconds: PREVIEW, tags: ['apego', 'Vínculo'] });
  await upload(t, staff, video.id, testVideo(8), 3);
  video = await processed(t, staff, video.id);
  video = await publish(t, staff, video.id);
}, 120_000);
afterAll(() => t?.close());

describe('the upload tool is Diván staff’s only', () => {
  it('refuses every staff route to a workspace owner and administrator, with or without the token', async () => {
    const ws = await createWorkspace(t, owner, 'Clínica Ana');
    expect(ws.id).toBeTruthy();
    const calls = [
      () => t.get(`${A}/videos`, { token: owner.accessToken, headers: staffHeaders }),
      () => t.post(`${A}/videos`, { title: 'x' }, { token: owner.accessToken, headers: staffHeaders }),
      () => t.patch(`${A}/videos/${video.id}`, { title: 'Mío' }, { token: owner.accessToken, headers: staffHeaders }),
      () => t.post(`${A}/videos/${video.id}/upload`, { fileName: 'a.mp4', size: 10 }, { token: owner.accessToken, headers: staffHeaders }),
      () => t.post(`${A}/videos/${video.id}/unpublish`, undefined, { token: owner.accessToken, headers: staffHeaders }),
      () => t.post(`${A}/purchases/${video.id}/refund`, undefined, { token: owner.accessToken, headers: staffHeaders }),
      () => t.get(`${A}/purchases?email=ana`, { token: owner.accessToken, headers: staffHeaders }),
    ];
    for (const call of calls) {
      const res = await call();
      expect([res.statusCode, code(res)], res.body).toEqual([403, 'learning_staff_only']);
    }
    expect((await t.get(`${A}/access`, { token: owner.accessToken })).json()).toEqual({ staff: false, uploadConfigured: true });
    expect((await t.get(`${A}/videos`)).statusCode).toBe(401);
  });

  it('opens to an account listed in LEARNING_STAFF_EMAILS as to one granted by npm run admin', async () => {
    const listed = await therapist(t, 'formacion@divan.test', 'Formación');
    expect((await t.get(`${A}/access`, { token: listed.accessToken })).json()).toEqual({ staff: true, uploadConfigured: true });
    expect((await t.get(`${A}/videos`, { token: listed.accessToken, headers: staffHeaders })).statusCode).toBe(200);
  });

  it('asks staff for the upload token, compared exactly', async () => {
    for (const headers of [{}, { 'x-upload-token': 'otro-token-cualquiera' }, { 'x-upload-token': `${UPLOAD_TOKEN}x` }] as Record<
      string,
      string
    >[]) {
      const res = await t.get(`${A}/videos`, { token: staff.accessToken, headers });
      expect([res.statusCode, code(res)]).toEqual([403, 'learning_upload_token']);
    }
  });

  it('checks every field: colour as 6-digit hex, the Vimeo form, a price of 0,42 … 9.999,99 €, a category', async () => {
    const res = await t.post(
      `${A}/videos`,
      {
        title: 'Nuevo',
        description: 'd',
        colour: '#fff',
        vimeoUrl: 'https://youtube.com/watch?v=1',
        categories: [],
        tags: [],
        priceCents: 1_000_000,
        previewSeconds: -1,
      },
      { token: staff.accessToken, headers: staffHeaders },
    );
    expect(res.statusCode).toBe(400);
    const fields = (res.json() as { fields: { path: string; message: string }[] }).fields;
    expect(Object.fromEntries(fields.map((e) => [e.path, e.message]))).toMatchObject({
      colour: expect.stringContaining('Color inválido'),
      vimeoUrl: expect.stringContaining('Vimeo'),
      categories: 'Elige al menos una categoría',
      priceCents: expect.stringContaining('El precio sin IVA debe estar entre 0,42 € y 9.999,99 €'),
    });
    const twice = await t.post(
      `${A}/videos`,
      { ...videoBody(), title: 'el APEGO en adultos' },
      { token: staff.accessToken, headers: staffHeaders },
    );
    expect([twice.statusCode, code(twice)]).toEqual([409, 'learning_content_exists']);
  });

  it('takes the pieces in order only: a wrong offset or a piece past the announced size is refused, and nothing is lost', async () => {
    const v = await createVideo(t, staff);
    const file = testVideo(2);
    const h = { token: staff.accessToken, headers: { ...staffHeaders, 'content-type': 'application/octet-stream' } };
    await t.post(
      `${A}/videos/${v.id}/upload`,
      { fileName: 'a.mp4', size: file.length },
      { token: staff.accessToken, headers: staffHeaders },
    );
    const ahead = await t.put(`${A}/videos/${v.id}/upload?offset=100`, file.subarray(100, 200), h);
    expect([ahead.statusCode, code(ahead)]).toEqual([409, 'learning_upload_offset']);
    const first = await t.put(`${A}/videos/${v.id}/upload?offset=0`, file.subarray(0, 1000), h);
    expect(first.json()).toMatchObject({ received: 1000 });
    const again = await t.put(`${A}/videos/${v.id}/upload?offset=0`, file.subarray(0, 1000), h);
    expect(code(again)).toBe('learning_upload_offset');
    const tooBig = await t.put(`${A}/videos/${v.id}/upload?offset=1000`, Buffer.concat([file.subarray(1000), Buffer.alloc(10)]), h);
    expect([tooBig.statusCode, code(tooBig)]).toEqual([413, 'file_too_large']);
    // Resumed: the same size asks where it stopped.
    const resumed = await t.post(
      `${A}/videos/${v.id}/upload`,
      { fileName: 'a.mp4', size: file.length },
      { token: staff.accessToken, headers: staffHeaders },
    );
    expect(resumed.json()).toMatchObject({ received: 1000, size: file.length });
    const rest = await t.put(`${A}/videos/${v.id}/upload?offset=1000`, file.subarray(1000), h);
    expect(rest.json()).toMatchObject({ received: file.length });
    const done = await processed(t, staff, v.id);
    expect(done).toMatchObject({ status: 'draft', hasFile: true });
    expect(done.durationSeconds).toBeGreaterThan(1.5);
  });

  it('says why a file that is no video failed', async () => {
    const v = await createVideo(t, staff);
    await upload(t, staff, v.id, Buffer.from('esto no es un vídeo, solo texto'), 1);
    const failed = await until(
      async () =>
        (
          (await t.get(`${A}/videos`, { token: staff.accessToken, headers: staffHeaders })).json() as { items: LearningAdminVideo[] }
        ).items.find((x) => x.id === v.id)!,
      (x) => x.status !== 'processing',
      30_000,
    );
    expect(failed).toMatchObject({ status: 'draft', hasFile: false, failure: 'El archivo no es un vídeo que podamos leer.' });
  });
});

describe('the preview holds on the server', () => {
  let media: LearningMedia;
  beforeAll(async () => {
    const res = await t.get(`/api/v1/learning/videos/${video.id}/media`, { token: owner.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    media = res.json() as LearningMedia;
  });

  it('gives a non-buyer the preview link only, whose bytes decode to at most the preview’s seconds', async () => {
    expect(media.full).toBeNull();
    expect(media.preview).toMatchObject({ seconds: PREVIEW });
    const res = await t.get(local(media.preview!.url));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    const seconds = probeSeconds(res.rawPayload);
    expect(seconds).toBeGreaterThan(PREVIEW - 0.2);
    expect(seconds).toBeLessThanOrEqual(PREVIEW + 0.05);
    expect(video.durationSeconds).toBeGreaterThan(7.5);
  });

  it('answers ranges of the preview (206, Content-Range) and 416 past its end', async () => {
    const path = local(media.preview!.url);
    const whole = (await t.get(path)).rawPayload;
    const part = await t.get(path, { headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${whole.length}`);
    expect(part.rawPayload.equals(whole.subarray(100, 200))).toBe(true);
    const tail = await t.get(path, { headers: { range: 'bytes=-10' } });
    expect(tail.rawPayload.equals(whole.subarray(whole.length - 10))).toBe(true);
    expect((await t.get(path, { headers: { range: `bytes=${whole.length}-` } })).statusCode).toBe(416);
  });

  it('refuses every forged, altered or expired link with 403', async () => {
    const token = new URL(media.preview!.url).searchParams.get('token')!;
    const [body, mac] = token.split('.');
    const claim = JSON.parse(Buffer.from(body!, 'base64url').toString()) as Record<string, unknown>;
    const forge = (c: Record<string, unknown>) => `${Buffer.from(JSON.stringify(c)).toString('base64url')}.${mac}`;
    for (const bad of [
      forge({ ...claim, r: 'full' }),
      forge({ ...claim, e: (claim.e as number) + 9999 }),
      `${body}.x${mac!.slice(1)}`,
      'nada',
      `${token}.extra`,
    ]) {
      for (const range of [undefined, 'bytes=0-99', 'bytes=5000-']) {
        const res = await t.get(`/api/v1/learning/media?token=${encodeURIComponent(bad)}`, range ? { headers: { range } } : {});
        expect([res.statusCode, code(res)]).toEqual([403, 'learning_media_forbidden']);
      }
    }
    // A well-signed full link for a non-buyer (as if leaked from the server's key): still refused, it checks the purchase.
    const links = new MediaLinks(createTokenService(t.config.appSecret).hashSecret);
    const leaked = links.sign({ v: video.id, u: owner.userId, r: 'full', e: Math.floor(Date.now() / 1000) + 600 });
    expect((await t.get(`/api/v1/learning/media?token=${leaked}`, { headers: { range: 'bytes=0-99' } })).statusCode).toBe(403);
    const expired = links.sign({ v: video.id, u: owner.userId, r: 'preview', e: Math.floor(Date.now() / 1000) - 1 });
    expect((await t.get(`/api/v1/learning/media?token=${expired}`)).statusCode).toBe(403);
  });

  it('shows the video in the catalogue with search, category and tag, and hides unpublished ones', async () => {
    const list = async (q: string) => (await t.get(`/api/v1/learning/videos${q}`, { token: owner.accessToken })).json() as LearningList;
    const ids = (l: LearningList) => l.items.map((i: LearningCard) => i.id);
    expect(ids(await list(''))).toContain(video.id);
    expect(ids(await list('?q=APEGO'))).toContain(video.id);
    expect(ids(await list('?q=nada-de-esto'))).toEqual([]);
    expect(ids(await list('?category=BOOK_COMMENTARY'))).toContain(video.id);
    expect(ids(await list('?category=CLINICAL_CASE_COMMENTARY'))).not.toContain(video.id);
    expect(ids(await list('?tag=vínculo'))).toContain(video.id);
    expect((await list('')).tags).toEqual(expect.arrayContaining(['apego', 'vínculo']));
    const res = await t.get(`/api/v1/learning/videos/${video.id}`, { token: owner.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as LearningVideo;
    expect(page).toMatchObject({
      title: 'El apego en adultos',
      priceWithVatCents: 3000,
      purchased: false,
      uploader: { name: 'Equipo Terapeuta'.split(' ')[0] },
    });
    const drafts = await t.rows<{ id: string }>(sql`select id from learning_videos where status = 'draft'`);
    for (const d of drafts) expect((await t.get(`/api/v1/learning/videos/${d.id}`, { token: owner.accessToken })).statusCode).toBe(404);
  });
});
