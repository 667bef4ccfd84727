import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  learningPriceWithVat,
  type LearningAdminPurchase,
  type LearningVideo,
  type LearningList,
  type LearningMedia,
  type LearningPurchaseResult,
  type LearningPurchase,
} from '@divan/core';
import { FRENCH_BUSINESS, giveBillingDetails, platformEventsTaken, subscribe } from '../../test/billing-fixtures';
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
let threeDsVideo = '';
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

/** Diván's rectifying invoices of the invoice of a purchase, and that invoice (issued by the operator's series). */
async function rectifications(purchaseId: string) {
  const [p] = await t.rows<{ invoice_id: string; total_cents: number }>(
    sql`select invoice_id, total_cents from learning_purchases where id = ${purchaseId}`,
  );
  const rows = await t.rows<{ id: string; number: string; subtotal: number; vat: number; total: number; listed: number | null }>(
    sql`select i.id, i.number, i.subtotal, i.vat, i.total, b.total as listed from invoices i
        left join billing_invoices b on b.invoice_id = i.id
        where i.rectifies_id = ${p!.invoice_id} and i.kind = 'rectifying' and i.status = 'issued'`,
  );
  const [original] = await t.rows<{ subtotal: number; vat: number; total: number }>(
    sql`select subtotal, vat, total from invoices where id = ${p!.invoice_id}`,
  );
  return { rows, original: original!, paid: p!.total_cents };
}

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
    threeDsVideo = id;
  });

  it('refunds a purchase paid on the provider’s page: the Checkout’s PaymentIntent returned in full, the access ended', async () => {
    expect(threeDsVideo).toBeTruthy();
    const [row] = await t.rows<{ id: string; pi: string | null; cs: string | null }>(
      sql`select id, payment_intent_id as pi, checkout_session_id as cs from learning_purchases where video_id = ${threeDsVideo} and status = 'paid'`,
    );
    // The webhook stored the money's PaymentIntent, not the session (which keys the invoice).
    expect(row!.pi).toMatch(/^pi_/);
    expect(row!.cs).toMatch(/^cs_test_/);
    const before = (await t.get(`/api/v1/learning/videos/${threeDsVideo}/media`, { token: owner.accessToken })).json() as LearningMedia;
    expect(before.full).toMatchObject({ kind: 'vimeo' });
    const refund = await t.post(`${A}/purchases/${row!.id}/refund`, undefined, { token: staff.accessToken, headers: staffHeaders });
    expect(refund.statusCode, refund.body).toBe(200);
    expect((refund.json() as LearningPurchase).refundedAt).not.toBeNull();
    const refunds = await t.rows<{ amount: number }>(
      sql`select (data->>'amount')::int as amount from sandbox_stripe_objects where type = 'refund' and data->>'payment_intent' = ${row!.pi}`,
    );
    expect(refunds).toEqual([{ amount: learningPriceWithVat(990) }]);
    const after = (await t.get(`/api/v1/learning/videos/${threeDsVideo}/media`, { token: owner.accessToken })).json() as LearningMedia;
    expect(after.full).toBeNull();
    const card = (await t.get(`/api/v1/learning/videos/${threeDsVideo}`, { token: owner.accessToken })).json() as { purchased: boolean };
    expect(card.purchased).toBe(false);
    // Diván's invoice rectified in full: negative, in its rectifying series, listed with the workspace's invoices.
    const r = await rectifications(row!.id);
    expect(r.original.total).toBe(learningPriceWithVat(990));
    expect(r.rows).toEqual([
      {
        id: expect.any(String),
        number: expect.stringMatching(/^RD\d{4}-\d{4}$/),
        subtotal: -r.original.subtotal,
        vat: -r.original.vat,
        total: -r.paid,
        listed: -r.paid,
      },
    ]);
    // Twice is refused: nothing is paid any more, nothing rectified again.
    const again = await t.post(`${A}/purchases/${row!.id}/refund`, undefined, { token: staff.accessToken, headers: staffHeaders });
    expect([again.statusCode, code(again)]).toEqual([404, 'learning_purchase_not_found']);
    expect((await rectifications(row!.id)).rows).toHaveLength(1);
  });

  it('lists recent purchases for the staff’s refunds screen, by part of the buyer’s email or all of it', async () => {
    const P = `${A}/purchases`;
    expect((await t.get(P, { token: owner.accessToken, headers: staffHeaders })).statusCode).toBe(403);
    const all = await t.get(P, { token: staff.accessToken, headers: staffHeaders });
    expect(all.statusCode, all.body).toBe(200);
    const items = (all.json() as { items: LearningAdminPurchase[] }).items;
    expect(items.length).toBeGreaterThanOrEqual(6);
    // Newest first; pending and failed attempts are not purchases.
    const times = items.map((i) => i.purchasedAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(items.every((i) => i.status === 'paid' || i.status === 'refunded')).toBe(true);
    const threeDs = items.find((i) => i.videoId === threeDsVideo)!;
    expect(threeDs).toMatchObject({
      status: 'refunded',
      paidOn: 'checkout',
      buyer: { id: owner.userId, name: 'Olga', email: 'olga@formacion.test' },
      totalCents: learningPriceWithVat(990),
    });
    expect(items.find((i) => i.videoId === fileVideo)).toMatchObject({ status: 'paid', paidOn: 'saved_card', refundedAt: null });
    for (const email of ['OLGA@', 'olga@formacion.test', 'formacion.test']) {
      const found = (
        await t.get(`${P}?email=${encodeURIComponent(email)}`, { token: staff.accessToken, headers: staffHeaders })
      ).json() as {
        items: LearningAdminPurchase[];
      };
      expect(found.items.map((i) => i.id).sort(), email).toEqual(items.map((i) => i.id).sort());
    }
    const none = (await t.get(`${P}?email=tere%40`, { token: staff.accessToken, headers: staffHeaders })).json() as {
      items: unknown[];
    };
    expect(none.items).toEqual([]);
  });

  it('refunds a Checkout purchase stored before its PaymentIntent was: read from the session', async () => {
    await addCard('4000 0027 6000 3184');
    const id = await vimeoVideo(1990);
    const out = (await buy(owner, id)).json() as { url: string };
    const sessionId = new URL(out.url).pathname.split('/').pop()!;
    await t.app.services.paymentsSandbox!.hosted.submitCard(sessionId, { number: '4242 4242 4242 4242', exp: '12/30', cvc: '123' });
    await platformEventsTaken(t);
    await until(
      () => t.rows<{ status: string }>(sql`select status from learning_purchases where video_id = ${id}`),
      (rows) => rows[0]?.status === 'paid',
    );
    await addCard('4242 4242 4242 4242');
    // As the rows of before this change: the session where the PaymentIntent goes.
    await t.rows(sql`update learning_purchases set payment_intent_id = checkout_session_id where video_id = ${id}`);
    const [row] = await t.rows<{ id: string }>(sql`select id from learning_purchases where video_id = ${id}`);
    const refund = await t.post(`${A}/purchases/${row!.id}/refund`, undefined, { token: staff.accessToken, headers: staffHeaders });
    expect(refund.statusCode, refund.body).toBe(200);
    const refunds = await t.rows<{ n: number }>(
      sql`select count(*)::int as n from sandbox_stripe_objects where type = 'refund' and data->>'amount' = ${String(learningPriceWithVat(1990))}`,
    );
    expect(refunds).toEqual([{ n: 1 }]);
  });

  it('is for whoever manages the workspace’s plan: a therapist member may not charge it', async () => {
    const id = await vimeoVideo(700);
    const res = await buy(tere, id);
    expect(res.statusCode).toBe(403);
  });
});

describe('what the video page says it will charge', () => {
  it('is the price with IVA in Spain, the base alone for an EU business with reverse charge — and that is what is charged', async () => {
    const marie = await therapist(t, 'marie@cabinet.test', 'Marie');
    const set = await withWorkspace(t, 'Cabinet Marie', { owner: { email: 'marie-owner@cabinet.test', firstName: 'Marie' } });
    const fr = set.ws.id;
    await giveBillingDetails(t, set.owner, fr, FRENCH_BUSINESS);
    await platformEventsTaken(t);
    await subscribe(t, set.owner, fr, { planId: 'advance', interval: 'month' });
    const id = await vimeoVideo(2479);
    const page = async (who: Therapist, workspaceId?: string) => {
      const res = await t.get(`/api/v1/learning/videos/${id}${workspaceId ? `?workspaceId=${workspaceId}` : ''}`, {
        token: who.accessToken,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as LearningVideo;
    };
    expect((await page(owner)).charge).toBeUndefined();
    expect((await page(owner, wid)).charge).toEqual({
      baseCents: 2479,
      vatCents: 521,
      totalCents: 3000,
      vatRate: 21,
      taxCase: 'spain',
      legend: null,
    });
    const reverse = (await page(set.owner, fr)).charge;
    expect(reverse).toEqual({
      baseCents: 2479,
      vatCents: 0,
      totalCents: 2479,
      vatRate: 0,
      taxCase: 'reverse_charge',
      legend: 'Inversión del sujeto pasivo',
    });
    // Someone not in the workspace learns nothing of its billing data.
    expect((await page(marie, fr)).charge).toBeNull();
    expect((await page(owner, fr)).charge).toBeNull();
    const bad = await t.get(`/api/v1/learning/videos/${id}?workspaceId=nope`, { token: owner.accessToken });
    expect(bad.statusCode).toBe(400);
    // What the page said is what the card pays and Diván's invoice says.
    const bought = (await buy(set.owner, id, fr)).json() as { purchase: LearningPurchase };
    expect(bought.purchase).toMatchObject({ baseCents: 2479, vatCents: 0, totalCents: reverse!.totalCents });
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
    // Two refunds at once (a double click): one refund, one rectifying invoice.
    const both = await Promise.all(
      [1, 2].map(() => t.post(`${A}/purchases/${p.id}/refund`, undefined, { token: staff.accessToken, headers: staffHeaders })),
    );
    expect(both.some((r) => r.statusCode === 200)).toBe(true);
    for (const r of both) {
      if (r.statusCode === 200) expect((r.json() as LearningPurchase).refundedAt, r.body).not.toBeNull();
      else expect(code(r)).toBe('learning_purchase_not_found');
    }
    expect((await t.get(link, { headers: { range: 'bytes=0-99' } })).statusCode).toBe(403);
    const r = await rectifications(p.id);
    expect(r.rows.map((x) => x.total)).toEqual([-r.paid]);
  });
});
