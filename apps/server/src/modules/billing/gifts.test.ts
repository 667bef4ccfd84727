import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { formatGiftCode, type DivanInvoices, type GiftCheckout, type GiftPurchase, type GiftView } from '@divan/core';
import { giveBillingDetails, platformEventsTaken, subscribe } from '../../test/billing-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { until } from '../../test/until';
import { therapist, withWorkspace, type Therapist } from '../../test/workspace-fixtures';

// Gift codes (issue 27 slice 5; spec §2 `/gift/{code}`): months of Premium bought through a Checkout in
// payment mode — Diván's invoice with IVA at the sale — the code shown once and mailed, never stored
// (only its keyed hash), redeemed once as months of free trial; used, unknown and expired codes said so.
let t: TestApp;
const sandbox = () => t.app.services.paymentsSandbox!;
const G = (wid: string) => `/api/v1/workspaces/${wid}/gifts`;

type Bought = { sessionId: string; code: string; buyer: Therapist; wid: string };
async function buy(buyer: Therapist, wid: string, body: Record<string, unknown>): Promise<Bought> {
  const res = await t.post(`${G(wid)}/checkout`, body, { token: buyer.accessToken });
  expect(res.statusCode, res.body).toBe(200);
  const { sessionId, url } = res.json() as GiftCheckout;
  expect(url).toContain(`/checkout/${sessionId}`);
  const done = await sandbox().hosted.submitCard(sessionId, { number: '4242 4242 4242 4242', exp: '12/30', cvc: '123' });
  expect(done).toMatchObject({ kind: 'redirect' });
  const paid = await until(
    async () => (await t.get(`${G(wid)}/checkout/${sessionId}`, { token: buyer.accessToken })).json() as GiftPurchase,
    (p) => p.status === 'paid',
  );
  await platformEventsTaken(t);
  return { sessionId, code: paid.code!, buyer, wid };
}
const view = (code: string) => t.get(`/api/v1/gifts/${code}`);
const redeem = (who: Therapist, wid: string, code: string) => t.post(`${G(wid)}/redeem`, { code }, { token: who.accessToken });
const trialEnd = async (wid: string) =>
  Number(
    (
      await t.rows<{ ms: string }>(
        sql`select (extract(epoch from free_trial_end) * 1000)::bigint::text as ms from workspaces where id = ${wid}`,
      )
    )[0]!.ms,
  );
const personalWorkspace = async (who: Therapist) =>
  (await t.rows<{ id: string }>(sql`select id from workspaces where owner_id = ${who.userId} limit 1`))[0]!.id;

let bought: Bought;
beforeAll(async () => {
  t = await createTestApp();
  const { owner, ws } = await withWorkspace(t, 'Consulta Irene', { owner: { email: 'irene@regala.test', firstName: 'Irene' } });
  await giveBillingDetails(t, owner, ws.id);
  bought = await buy(owner, ws.id, {
    months: 3,
    recipientEmail: 'jon@regalo.test',
    recipientName: 'Jon',
    message: '¡Ánimo con la consulta!',
  });
});
afterAll(() => t?.close());

describe('buying a gift', () => {
  it('paid by the webhook, invoiced with IVA at the sale, the code shown once to its buyer and mailed to both', async () => {
    const { sessionId, code, buyer, wid } = bought;
    expect(code).toMatch(/^[A-Z2-7]{26}$/);
    // Once: the next read says it was shown.
    const again = (await t.get(`${G(wid)}/checkout/${sessionId}`, { token: buyer.accessToken })).json() as GiftPurchase;
    expect(again).toMatchObject({
      status: 'paid',
      code: null,
      link: null,
      revealed: true,
      months: 3,
      subtotal: 8700,
      vat: 1827,
      total: 10527,
    });
    // The code is nowhere in the database: only its keyed hash.
    const [row] = await t.rows<Record<string, unknown>>(sql`select * from gift_codes where checkout_session_id = ${sessionId}`);
    expect(JSON.stringify(row)).not.toContain(code);
    expect(row!.code_hash).toEqual(expect.any(String));
    // Diván's invoice of the sale: 3 × 29 € plus 21 % IVA.
    const items = ((await t.get(`/api/v1/workspaces/${wid}/billing/invoices`, { token: buyer.accessToken })).json() as DivanInvoices).items;
    expect(items).toEqual([expect.objectContaining({ subtotal: 8700, vat: 1827, total: 10527, vatRate: 21 })]);
    expect(items[0]!.description).toContain('Tarjeta regalo: 3 meses de Diván Premium');
    for (const to of ['irene@regala.test', 'jon@regalo.test']) {
      const mail = await t.lastMail(to);
      expect(mail.subject).toBe('Irene te regala 3 meses de Diván Premium');
      expect(mail.text).toContain(formatGiftCode(code));
      expect(mail.text).toContain(`/gift/${code}`);
      expect(mail.text).toContain('¡Ánimo con la consulta!');
    }
  });

  it('every event of the sale delivered again three times: one invoice, one mail each, the same gift', async () => {
    const events = await t.rows<{ id: string }>(
      sql`select id from sandbox_stripe_objects where type = 'event' and account is null and data->'data'->'object'->>'id' = ${bought.sessionId}`,
    );
    expect(events).toHaveLength(1);
    const before = await t.rows(
      sql`select paid_at, expires_at, revealed_at from gift_codes where checkout_session_id = ${bought.sessionId}`,
    );
    await t.rows(sql`delete from billing_events where event_id = ${events[0]!.id}`);
    const { payload, signature } = await sandbox().signedEvent(events[0]!.id);
    const deliveries = await Promise.all(
      [0, 1, 2].map(() =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/billing/webhook',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          payload,
        }),
      ),
    );
    expect(deliveries.map((d) => d.statusCode)).toEqual([200, 200, 200]);
    expect(
      await t.rows(sql`select paid_at, expires_at, revealed_at from gift_codes where checkout_session_id = ${bought.sessionId}`),
    ).toEqual(before);
    expect(await t.rows(sql`select 1 from billing_invoices where provider_invoice_id = ${bought.sessionId}`)).toHaveLength(1);
    expect(await t.rows(sql`select key from mail_outbox where key like 'divan-gift-%' order by key`)).toHaveLength(2);
  });

  it('not paid, not yet: an open Checkout is open and holds no code; who may not manage billing cannot buy; no billing data, no sale', async () => {
    const { owner, ws, members } = await withWorkspace(t, 'Consulta Kiko', {
      owner: { email: 'kiko@regala.test', firstName: 'Kiko' },
      members: { lia: { email: 'lia@regala.test', firstName: 'Lía', role: 'Terapeuta' } },
    });
    const missing = await t.post(`${G(ws.id)}/checkout`, { months: 1 }, { token: owner.accessToken });
    expect([missing.statusCode, missing.json().code]).toEqual([409, 'billing_details_missing']);
    await giveBillingDetails(t, owner, ws.id);
    expect((await t.post(`${G(ws.id)}/checkout`, { months: 1 }, { token: members.lia.accessToken })).statusCode).toBe(403);
    const wrong = await t.post(`${G(ws.id)}/checkout`, { months: 2 }, { token: owner.accessToken });
    expect([wrong.statusCode, wrong.json().fields?.[0]?.path]).toEqual([400, 'months']);
    const { sessionId } = (await t.post(`${G(ws.id)}/checkout`, { months: 1 }, { token: owner.accessToken })).json() as GiftCheckout;
    const open = (await t.get(`${G(ws.id)}/checkout/${sessionId}`, { token: owner.accessToken })).json() as GiftPurchase;
    expect(open).toMatchObject({ status: 'open', code: null, revealed: false, total: 3509 });
    // Another workspace cannot read it.
    const other = await t.get(`${G(bought.wid)}/checkout/${sessionId}`, { token: bought.buyer.accessToken });
    expect([other.statusCode, other.json().code]).toEqual([404, 'gift_checkout_not_found']);
  });
});

describe('the gift page and its redemption', () => {
  it('shows what the gift holds; redeemed once by an owner, as months of trial; then says it was used', async () => {
    const seen = await view(formatGiftCode(bought.code).toLowerCase());
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json()).toEqual({
      status: 'available',
      months: 3,
      fromName: 'Irene',
      recipientName: 'Jon',
      message: '¡Ánimo con la consulta!',
      expiresAt: expect.any(String),
    } satisfies GiftView);
    for (const bad of ['ZZZZZZZZZZZZZZZZZZZZZZZZZZ', 'no-es-un-codigo']) {
      const res = await view(bad);
      expect([res.statusCode, res.json().code]).toEqual([404, 'gift_not_found']);
    }

    const jon = await therapist(t, 'jon@regalo.test', 'Jon');
    const wid = await personalWorkspace(jon);
    const before = await trialEnd(wid);
    const ok = await redeem(jon, wid, bought.code);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().months).toBe(3);
    const end = new Date(before);
    end.setUTCMonth(end.getUTCMonth() + 3);
    expect(Math.abs(Date.parse(ok.json().freeTrialEnd) - end.getTime())).toBeLessThan(3 * 86_400_000);
    expect(await trialEnd(wid)).toBe(Date.parse(ok.json().freeTrialEnd));
    // Twice at once, or again later: once.
    const twice = await Promise.all([redeem(jon, wid, bought.code), redeem(bought.buyer, bought.wid, bought.code)]);
    expect(twice.map((r) => r.json().code)).toEqual(['gift_redeemed', 'gift_redeemed']);
    expect((await view(bought.code)).json().status).toBe('redeemed');
  });

  it('only the owner redeems, never on a workspace with a paid plan, never after it expired', async () => {
    const { owner, ws, members } = await withWorkspace(t, 'Consulta Mar', {
      owner: { email: 'mar@regala.test', firstName: 'Mar' },
      members: { noa: { email: 'noa@regala.test', firstName: 'Noa', role: 'Terapeuta' } },
    });
    await giveBillingDetails(t, owner, ws.id);
    const gift = await buy(owner, ws.id, { months: 1 });
    expect((await redeem(members.noa, ws.id, gift.code)).statusCode).toBe(403);
    await subscribe(t, owner, ws.id, { planId: 'basic', interval: 'month' });
    await platformEventsTaken(t);
    const subscribed = await redeem(owner, ws.id, gift.code);
    expect([subscribed.statusCode, subscribed.json().code]).toEqual([409, 'gift_workspace_subscribed']);
    const garbage = await redeem(owner, ws.id, 'abc');
    expect([garbage.statusCode, garbage.json().fields?.[0]?.path]).toEqual([400, 'code']);
    await t.rows(sql`update gift_codes set expires_at = now() - interval '1 day' where checkout_session_id = ${gift.sessionId}`);
    expect((await view(gift.code)).json().status).toBe('expired');
    const noa = await personalWorkspace(members.noa);
    const late = await redeem(members.noa, noa, gift.code);
    expect([late.statusCode, late.json().code]).toEqual([410, 'gift_expired']);
  });
});
