import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  learningPriceWithVat,
  type LearningList,
  type LearningMedia,
  type LearningPurchaseResult,
  type LearningPurchase,
} from '@divan/core';
import { platformEventsTaken, subscribe } from '../../test/billing-fixtures';
import { A, UPLOAD_TOKEN, createVideo, makeStaff, processed, publish, staffHeaders, testVideo, upload } from '../../test/learning-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { until } from '../../test/until';
import { therapist, withWorkspace, type Therapist } from '../../test/workspace-fixtures';

// «Continuar y pagar» (issue 29): the workspace's saved card charged off-session, Diván's invoice with the
// IVA-inclusive price the page showed to the cent, access without limit; twice refused; a declined card
// leaves nothing bought; progress counted by time watched; each therapist reads only their own.
let t: TestApp;
let staff: Therapist;
let owner: Therapist;
let tere: Therapist;
let wid: string;
let fileVideo: string;
const code = (res: { json(): unknown }) => (res.json() as { code: string }).code;
const sandbox = () => t.app.services.paymentsSandbox!.billing!;
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};
const buy = (who: Therapist, videoId: string, workspaceId = wid) =>
  t.post(`/api/v1/workspaces/${workspaceId}/learning/videos/${videoId}/purchase`, undefined, { token: who.accessToken });
const vimeoVideo = async (priceCents: number) =>
  (await publish(t, staff, (await createVideo(t, staff, { priceCents, vimeoUrl: 'https://vimeo.com/76979871', previewSeconds: 0 })).id)).id;

/** A card added on the provider's portal: the newest card, the one a purchase charges. */
async function addCard(number: string) {
  const { url } = (await t.post(`/api/v1/workspaces/${wid}/billing/portal`, {}, { token: owner.accessToken })).json() as { url: string };
  await sandbox().portals.addCard(new URL(url).pathname.split('/').pop()!, { number, exp: '12/30', cvc: '123' });
  await platformEventsTaken(t);
}

beforeAll(async () => {
  t = await createTestApp({ learningUploadToken: UPLOAD_TOKEN });
  staff = await therapist(t, 'equipo@formacion.test', 'Equipo');
  await makeStaff(t, staff);
  const set = await withWorkspace(t, 'Consulta Olga', {
    owner: { email: 'olga@formacion.test', firstName: 'Olga' },
    members: { tere: { email: 'tere@formacion.test', firstName: 'Tere', role: 'Terapeuta' } },
  });
  ({ owner } = set);
  tere = set.members.tere;
  wid = set.ws.id;
  await subscribe(t, owner, wid, { planId: 'advance', interval: 'month' });
  const v = await createVideo(t, staff, { title: 'Entrevista motivacional', previewSeconds: 2, categories: ['PSYCHOLOGIST_SKILLS'] });
  await upload(t, staff, v.id, testVideo(6), 1);
  await processed(t, staff, v.id);
  fileVideo = (await publish(t, staff, v.id)).id;
}, 180_000);
afterAll(() => t?.close());

describe('buying a video', () => {
  it('charges the IVA-inclusive price to the cent and issues Diván’s invoice for it, for 0,42 € … 9.999,99 €', async () => {
    for (const price of [42, 43, 50, 2479, 999_999]) {
      const id = await vimeoVideo(price);
      const res = await buy(owner, id);
      expect(res.statusCode, res.body).toBe(200);
      const out = res.json() as LearningPurchaseResult;
      expect(out.status).toBe('purchased');
      const p = (out as { purchase: LearningPurchase }).purchase;
      expect(p).toMatchObject({ baseCents: price, totalCents: learningPriceWithVat(price), vatCents: learningPriceWithVat(price) - price });
      expect(p.invoiceNumber).toBeTruthy();
      const [inv] = await t.rows<{ subtotal: number; vat: number; total: number; number: string }>(
        sql`select subtotal, vat, total, number from billing_invoices where invoice_id = ${p.invoiceId}`,
      );
      expect(inv).toEqual({
        subtotal: price,
        vat: learningPriceWithVat(price) - price,
        total: learningPriceWithVat(price),
        number: p.invoiceNumber,
      });
      const [charged] = await t.rows<{ amount: number }>(
        sql`select (data->>'amount')::int as amount from sandbox_stripe_objects where type = 'payment_intent' and id = ${p.id === '' ? '' : (await t.rows<{ pi: string }>(sql`select payment_intent_id as pi from learning_purchases where id = ${p.id}`))[0]!.pi}`,
      );
      expect(charged!.amount).toBe(learningPriceWithVat(price));
    }
  });

  it('refuses to buy twice, and gives the buyer the full video by signed link with ranges', async () => {
    const first = await buy(owner, fileVideo);
    expect(first.statusCode, first.body).toBe(200);
    const again = await buy(owner, fileVideo);
    expect([again.statusCode, code(again)]).toEqual([409, 'learning_already_purchased']);
    const media = (await t.get(`/api/v1/learning/videos/${fileVideo}/media`, { token: owner.accessToken })).json() as LearningMedia;
    expect(media.full).toMatchObject({ kind: 'file' });
    const full = media.full as { url: string };
    const part = await t.get(local(full.url), { headers: { range: 'bytes=0-1023' } });
    expect([part.statusCode, part.rawPayload.length]).toEqual([206, 1024]);
    // The buyer's link is theirs: Tere, who did not buy, is refused with it? No — the link names its user;
    // a link is a bearer credential for its short life, but it opens only while that user's purchase stands.
    const tereMedia = (await t.get(`/api/v1/learning/videos/${fileVideo}/media`, { token: tere.accessToken })).json() as LearningMedia;
    expect(tereMedia.full).toBeNull();
  });

  it('leaves nothing bought when the card is declined, and says to check the payment method', async () => {
    await addCard('4000 0000 0000 9995');
    const id = await vimeoVideo(1500);
    const res = await buy(owner, id);
    expect([res.statusCode, code(res)]).toEqual([402, 'learning_purchase_failed']);
    expect((res.json() as { message: string }).message).toContain('método de pago');
    expect(await t.rows(sql`select 1 from learning_purchases where video_id = ${id} and status in ('paid', 'pending')`)).toEqual([]);
    const card = (await t.get(`/api/v1/learning/videos/${id}`, { token: owner.accessToken })).json() as { purchased: boolean };
    expect(card.purchased).toBe(false);
    await addCard('4242 4242 4242 4242');
  });

  it('sends the buyer to the provider’s page when the bank asks for authentication, and the webhook grants it', async () => {
    await addCard('4000 0027 6000 3184');
    const id = await vimeoVideo(990);
    const res = await buy(owner, id);
    const out = res.json() as LearningPurchaseResult;
    expect(out.status, res.body).toBe('authenticate');
    const sessionId = new URL((out as { url: string }).url).pathname.split('/').pop()!;
    const done = await t.app.services.paymentsSandbox!.hosted.submitCard(sessionId, {
      number: '4242 4242 4242 4242',
      exp: '12/30',
      cvc: '123',
    });
    expect(done).toMatchObject({ kind: 'redirect' });
    await platformEventsTaken(t);
    // The webhook's work may finish after the delivery is taken: its effect is waited for.
    const [row] = await until(
      () =>
        t.rows<{ status: string; total_cents: number; invoice_number: string | null }>(
          sql`select status, total_cents, invoice_number from learning_purchases where video_id = ${id}`,
        ),
      (rows) => rows[0]?.status === 'paid',
    );
    expect(row).toMatchObject({ status: 'paid', total_cents: learningPriceWithVat(990) });
    expect(row!.invoice_number).toBeTruthy();
    await addCard('4242 4242 4242 4242');
  });

  it('is for whoever manages the workspace’s plan: a therapist member may not charge it', async () => {
    const id = await vimeoVideo(700);
    const res = await buy(tere, id);
    expect(res.statusCode).toBe(403);
  });
});

describe('progress, favourites and whose they are', () => {
  it('counts time watched, not position: a jump to the end is not completed, watching 90 % is', async () => {
    const P = `/api/v1/learning/videos/${fileVideo}/progress`;
    const jump = await t.put(
      P,
      {
        positionSeconds: 5.9,
        watched: [
          [0, 1],
          [5, 5.9],
        ],
      },
      { token: owner.accessToken },
    );
    expect(jump.statusCode, jump.body).toBe(200);
    expect(jump.json()).toMatchObject({ positionSeconds: 5.9, completedAt: null });
    const watched = await t.put(P, { positionSeconds: 5.5, watched: [[0.5, 5.5]] }, { token: owner.accessToken });
    expect((watched.json() as { completedAt: string | null; watchedSeconds: number }).completedAt).not.toBeNull();
    // A non-buyer has no progress to save.
    const other = await t.put(P, { positionSeconds: 1, watched: [[0, 1]] }, { token: tere.accessToken });
    expect([other.statusCode, code(other)]).toEqual([403, 'learning_media_forbidden']);
    const done = (await t.get('/api/v1/learning/videos?shelf=completed', { token: owner.accessToken })).json() as LearningList;
    expect(done.items.map((i) => i.id)).toContain(fileVideo);
    const teres = (await t.get('/api/v1/learning/videos?shelf=completed', { token: tere.accessToken })).json() as LearningList;
    expect(teres.items).toEqual([]);
  });

  it('keeps favourites per therapist; twice is said so', async () => {
    const B = `/api/v1/learning/videos/${fileVideo}/bookmark`;
    expect((await t.post(B, undefined, { token: tere.accessToken })).statusCode).toBe(204);
    expect(code(await t.post(B, undefined, { token: tere.accessToken }))).toBe('learning_bookmark_exists');
    const favs = (await t.get('/api/v1/learning/videos?shelf=favorites', { token: tere.accessToken })).json() as LearningList;
    expect(favs.items.map((i) => i.id)).toEqual([fileVideo]);
    const olgas = (await t.get('/api/v1/learning/videos?shelf=favorites', { token: owner.accessToken })).json() as LearningList;
    expect(olgas.items).toEqual([]);
    expect((await t.del(B, { token: tere.accessToken })).statusCode).toBe(204);
    expect(code(await t.del(B, { token: tere.accessToken }))).toBe('learning_bookmark_not_found');
  });

  it('keeps a buyer’s access when the video is unpublished, and hides it from everyone else', async () => {
    const id = await vimeoVideo(1200);
    expect((await buy(owner, id)).statusCode).toBe(200);
    const off = await t.post(`${A}/videos/${id}/unpublish`, undefined, { token: staff.accessToken, headers: staffHeaders });
    expect(off.statusCode, off.body).toBe(200);
    const mine = await t.get(`/api/v1/learning/videos/${id}/media`, { token: owner.accessToken });
    expect((mine.json() as LearningMedia).full).toMatchObject({ kind: 'vimeo' });
    const bought = (await t.get('/api/v1/learning/videos?shelf=purchased', { token: owner.accessToken })).json() as LearningList;
    expect(bought.items.map((i) => i.id)).toContain(id);
    expect((await t.get(`/api/v1/learning/videos/${id}`, { token: tere.accessToken })).statusCode).toBe(404);
    const catalogue = (await t.get('/api/v1/learning/videos', { token: tere.accessToken })).json() as LearningList;
    expect(catalogue.items.map((i) => i.id)).not.toContain(id);
    expect(code(await buy(owner, id))).toBe('learning_already_purchased');
  });

  it('lists only the caller’s purchases; the operator’s refund ends the access at once', async () => {
    const mine = (await t.get('/api/v1/learning/purchases', { token: owner.accessToken })).json() as { items: LearningPurchase[] };
    expect(mine.items.length).toBeGreaterThanOrEqual(6);
    expect(((await t.get('/api/v1/learning/purchases', { token: tere.accessToken })).json() as { items: unknown[] }).items).toEqual([]);
    const media = (await t.get(`/api/v1/learning/videos/${fileVideo}/media`, { token: owner.accessToken })).json() as LearningMedia;
    const link = local((media.full as { url: string }).url);
    const p = mine.items.find((i) => i.videoId === fileVideo)!;
    const refused = await t.post(`${A}/purchases/${p.id}/refund`, undefined, { token: owner.accessToken, headers: staffHeaders });
    expect(refused.statusCode).toBe(403);
    const refund = await t.post(`${A}/purchases/${p.id}/refund`, undefined, { token: staff.accessToken, headers: staffHeaders });
    expect(refund.statusCode, refund.body).toBe(200);
    expect((refund.json() as LearningPurchase).refundedAt).not.toBeNull();
    expect((await t.get(link, { headers: { range: 'bytes=0-99' } })).statusCode).toBe(403);
  });
});
