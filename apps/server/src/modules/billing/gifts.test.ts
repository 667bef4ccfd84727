import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  addMonthsUtc,
  formatGiftCode,
  type DivanInvoices,
  type GiftCheckout,
  type GiftPurchase,
  type GiftView,
  type RedeemGift,
  type Workspace,
} from '@divan/core';
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

const giftIdOf = async (g: Bought) =>
  (await t.rows<{ id: string }>(sql`select id from gift_codes where checkout_session_id = ${g.sessionId}`))[0]!.id;
/** The credit lines the provider holds for a gift (its metadata names it). */
const creditItems = async (g: Bought) =>
  t.rows<{ amount: number; invoice: string | null; description: string; customer: string }>(
    sql`select (data->>'amount')::int as amount, data->>'invoice' as invoice, data->>'description' as description,
        data->>'customer' as customer from sandbox_stripe_objects
        where type = 'invoiceitem' and account is null and data->'metadata'->>'divan_gift' = ${await giftIdOf(g)}`,
  );
const redemptionOf = async (g: Bought) =>
  (
    await t.rows<{ redeemed: boolean; workspace: string | null }>(
      sql`select redeemed_at is not null as redeemed, redeemed_workspace_id as workspace from gift_codes where checkout_session_id = ${g.sessionId}`,
    )
  )[0]!;
const subscriptionOf = async (wid: string) =>
  (
    await t.rows<{ id: string; end: string }>(
      sql`select subscription_id as id, (extract(epoch from current_period_end) * 1000)::bigint::text as "end"
          from billing_subscriptions where workspace_id = ${wid}`,
    )
  )[0]!;
/** Plays the sandbox's clock for the workspace's subscription up to `to`, its events taken. */
async function advance(wid: string, to: number) {
  await sandbox().billing!.renewals.advance((await subscriptionOf(wid)).id, Math.floor(to / 1000));
  await platformEventsTaken(t);
}
const workspaceOf = async (who: Therapist, wid: string) =>
  (await t.get(`/api/v1/workspaces/${wid}`, { token: who.accessToken })).json() as Workspace;
const divanInvoices = async (who: Therapist, wid: string) =>
  ((await t.get(`/api/v1/workspaces/${wid}/billing/invoices`, { token: who.accessToken })).json() as DivanInvoices).items;
/** A workspace of its own owner, subscribed to a plan through Checkout as a person does it. */
async function paying(name: string, email: string, plan: { planId: 'basic' | 'advance'; interval: 'month' | 'year' }) {
  const { owner, ws } = await withWorkspace(t, name, { owner: { email, firstName: name.split(' ')[1]! } });
  await subscribe(t, owner, ws.id, plan);
  await platformEventsTaken(t);
  return { owner, wid: ws.id };
}

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
afterEach(() => vi.restoreAllMocks());

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
    expect(ok.json()).toMatchObject({ months: 3, applied: 'trial', planEnd: null, creditCents: null } satisfies Partial<RedeemGift>);
    const end = new Date(before);
    end.setUTCMonth(end.getUTCMonth() + 3);
    expect(Math.abs(Date.parse(ok.json().freeTrialEnd) - end.getTime())).toBeLessThan(3 * 86_400_000);
    expect(await trialEnd(wid)).toBe(Date.parse(ok.json().freeTrialEnd));
    // Twice at once, or again later: once.
    const twice = await Promise.all([redeem(jon, wid, bought.code), redeem(bought.buyer, bought.wid, bought.code)]);
    expect(twice.map((r) => r.json().code)).toEqual(['gift_redeemed', 'gift_redeemed']);
    expect((await view(bought.code)).json().status).toBe('redeemed');
  });

  it('only the owner redeems, never after it expired', async () => {
    const { owner, ws, members } = await withWorkspace(t, 'Consulta Mar', {
      owner: { email: 'mar@regala.test', firstName: 'Mar' },
      members: { noa: { email: 'noa@regala.test', firstName: 'Noa', role: 'Terapeuta' } },
    });
    await giveBillingDetails(t, owner, ws.id);
    const gift = await buy(owner, ws.id, { months: 1 });
    expect((await redeem(members.noa, ws.id, gift.code)).statusCode).toBe(403);
    const garbage = await redeem(owner, ws.id, 'abc');
    expect([garbage.statusCode, garbage.json().fields?.[0]?.path]).toEqual([400, 'code']);
    await t.rows(sql`update gift_codes set expires_at = now() - interval '1 day' where checkout_session_id = ${gift.sessionId}`);
    expect((await view(gift.code)).json().status).toBe('expired');
    const noa = await personalWorkspace(members.noa);
    const late = await redeem(members.noa, noa, gift.code);
    expect([late.statusCode, late.json().code]).toEqual([410, 'gift_expired']);
  });
});

describe('a gift on a workspace that already pays', () => {
  it('a plan that renews: what the gift is worth before IVA, a credit line on its next invoice, which charges IVA on the rest', async () => {
    const { owner: rosa, wid } = await paying('Consulta Rosa', 'rosa@regala.test', { planId: 'advance', interval: 'year' });
    const gift = await buy(bought.buyer, bought.wid, { months: 3 });
    const trialBefore = await trialEnd(wid);
    const ok = await redeem(rosa, wid, gift.code);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ months: 3, applied: 'credit', freeTrialEnd: null, planEnd: null, creditCents: 8700 } satisfies RedeemGift);
    // The trial is left as it was; the line waits on the provider for the renewal.
    expect(await trialEnd(wid)).toBe(trialBefore);
    expect(await creditItems(gift)).toEqual([
      { amount: -8700, invoice: null, description: 'Tarjeta regalo: 3 meses de Diván Premium', customer: expect.any(String) },
    ]);
    expect(await redemptionOf(gift)).toEqual({ redeemed: true, workspace: wid });
    expect((await view(gift.code)).json().status).toBe('redeemed');
    // Again: once.
    const again = await redeem(rosa, wid, gift.code);
    expect([again.statusCode, again.json().code]).toEqual([409, 'gift_redeemed']);
    expect(await creditItems(gift)).toHaveLength(1);

    // The renewal, a year on: the year less the gift, and IVA on what is left.
    await advance(wid, Number((await subscriptionOf(wid)).end) + 60_000);
    const items = await divanInvoices(rosa, wid);
    expect(items).toHaveLength(2);
    const renewal = items.find((i) => i.subtotal !== 29000)!;
    expect(renewal).toMatchObject({ subtotal: 29000 - 8700, vat: Math.round((29000 - 8700) * 0.21), vatRate: 21 });
    expect(renewal.total).toBe(renewal.subtotal + renewal.vat);
    expect(renewal.description).toContain('Tarjeta regalo: 3 meses de Diván Premium');
    expect((await creditItems(gift))[0]!.invoice).toMatch(/^in_/);
  });

  it('a plan whose renewal is off: the months follow its paid period as trial, and the workspace is in trial when it ends', async () => {
    const { owner: sol, wid } = await paying('Consulta Sol', 'sol@regala.test', { planId: 'basic', interval: 'month' });
    const off = await t.post(`/api/v1/workspaces/${wid}/billing/subscription/cancel`, {}, { token: sol.accessToken });
    expect(off.statusCode, off.body).toBe(200);
    await platformEventsTaken(t);
    const periodEnd = Number((await subscriptionOf(wid)).end);
    expect(periodEnd).toBeGreaterThan(await trialEnd(wid));
    const gift = await buy(bought.buyer, bought.wid, { months: 1 });
    const ok = await redeem(sol, wid, gift.code);
    expect(ok.statusCode, ok.body).toBe(200);
    const until = addMonthsUtc(new Date(periodEnd), 1);
    expect(ok.json()).toEqual({
      months: 1,
      applied: 'trial',
      freeTrialEnd: until.toISOString(),
      planEnd: new Date(periodEnd).toISOString(),
      creditCents: null,
    } satisfies RedeemGift);
    expect(await trialEnd(wid)).toBe(until.getTime());
    expect(await creditItems(gift)).toEqual([]);
    // Until its end the plan bought is in force, Basic's limits and all.
    expect((await workspaceOf(sol, wid)).plan).toMatchObject({ id: 'basic', renovationEnabled: false });
    expect((await workspaceOf(sol, wid)).features.activePatientLimit).toBe(30);

    // It ends, nothing charged: the gift's month of Premium, as trial, until the date it said.
    await advance(wid, periodEnd + 86_400_000);
    const after = await workspaceOf(sol, wid);
    expect(after.plan).toMatchObject({ id: null, freeTrialEnd: until.toISOString() });
    expect(after.features).toMatchObject({ activePatientLimit: null, canCreateInvoiceBatch: true });
    expect(await divanInvoices(sol, wid)).toHaveLength(1);
  });

  it('twice at once on one workspace: one credit; on two workspaces at once: one of them, the other refused', async () => {
    const { owner: ines, wid } = await paying('Consulta Inés', 'ines@regala.test', { planId: 'advance', interval: 'month' });
    const gift = await buy(bought.buyer, bought.wid, { months: 1 });
    const both = await Promise.all([redeem(ines, wid, gift.code), redeem(ines, wid, gift.code)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.statusCode === 409)!.json().code).toBe('gift_redeemed');
    expect(await creditItems(gift)).toEqual([expect.objectContaining({ amount: -2900 })]);

    // The same code on a workspace that pays and on one in trial, at once: a credit or a trial, never both.
    const other = await buy(bought.buyer, bought.wid, { months: 1 });
    const { owner: leo, ws: trialWs } = await withWorkspace(t, 'Consulta Leo', { owner: { email: 'leo@regala.test', firstName: 'Leo' } });
    const trialBefore = await trialEnd(trialWs.id);
    const race = await Promise.all([redeem(ines, wid, other.code), redeem(leo, trialWs.id, other.code)]);
    expect(race.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const credited = race[0]!.statusCode === 200;
    expect(race[credited ? 1 : 0]!.json().code).toBe('gift_redeemed');
    expect(await creditItems(other)).toHaveLength(credited ? 1 : 0);
    expect((await trialEnd(trialWs.id)) > trialBefore).toBe(!credited);
    expect((await redemptionOf(other)).workspace).toBe(credited ? wid : trialWs.id);
  });

  it('the provider failing, or its answer lost: not redeemed and kept for the workspace; its retry places the one line', async () => {
    const { owner: eva, wid } = await paying('Consulta Eva', 'eva@regala.test', { planId: 'advance', interval: 'month' });
    const gift = await buy(bought.buyer, bought.wid, { months: 3 });
    const billing = sandbox().billing!;
    const place = billing.addInvoiceItem.bind(billing);
    vi.spyOn(billing, 'addInvoiceItem').mockRejectedValueOnce(new Error('provider down'));
    const down = await redeem(eva, wid, gift.code);
    expect([down.statusCode, down.json().code]).toEqual([503, 'billing_unavailable']);
    expect(down.json().message).toContain('No hemos podido descontar el regalo');
    expect(await creditItems(gift)).toEqual([]);
    expect(await redemptionOf(gift)).toEqual({ redeemed: false, workspace: wid });
    expect((await view(gift.code)).json().status).toBe('available');
    // Meanwhile nobody else redeems it.
    const { owner: teo, ws: teoWs } = await withWorkspace(t, 'Consulta Teo', { owner: { email: 'teo@regala.test', firstName: 'Teo' } });
    const elsewhere = await redeem(teo, teoWs.id, gift.code);
    expect([elsewhere.statusCode, elsewhere.json().code]).toEqual([409, 'gift_redeemed']);

    // The line placed but the answer lost: the retry gets the same line back.
    vi.spyOn(billing, 'addInvoiceItem').mockImplementationOnce(async (input) => {
      await place(input);
      throw new Error('timeout');
    });
    const lost = await redeem(eva, wid, gift.code);
    expect([lost.statusCode, lost.json().code]).toEqual([503, 'billing_unavailable']);
    expect(await creditItems(gift)).toHaveLength(1);
    expect((await redemptionOf(gift)).redeemed).toBe(false);
    const retried = await redeem(eva, wid, gift.code);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toMatchObject({ applied: 'credit', creditCents: 8700 });
    expect(await creditItems(gift)).toEqual([expect.objectContaining({ amount: -8700 })]);
    expect(await redemptionOf(gift)).toEqual({ redeemed: true, workspace: wid });
  });

  it('refused while the plan’s last charge is unpaid, and on a plan Diván’s team manages (Team)', async () => {
    const { owner: ona, wid } = await paying('Consulta Ona', 'ona@regala.test', { planId: 'basic', interval: 'month' });
    const gift = await buy(bought.buyer, bought.wid, { months: 1 });
    await t.rows(sql`update billing_subscriptions set status = 'past_due' where workspace_id = ${wid}`);
    const unpaid = await redeem(ona, wid, gift.code);
    expect([unpaid.statusCode, unpaid.json().code]).toEqual([409, 'gift_workspace_subscribed']);
    expect(unpaid.json().message).toContain('último cobro');
    expect(await redemptionOf(gift)).toEqual({ redeemed: false, workspace: null });

    const { owner: pau, ws: team } = await withWorkspace(t, 'Centro Pau', { owner: { email: 'pau@regala.test', firstName: 'Pau' } });
    await t.app.services.workspaces.setPlan(team.id, { id: 'team', seats: 5 });
    const managed = await redeem(pau, team.id, gift.code);
    expect([managed.statusCode, managed.json().code]).toEqual([409, 'gift_workspace_subscribed']);
    expect(managed.json().message).toContain('plan Team');
    expect(await creditItems(gift)).toEqual([]);
    expect((await view(gift.code)).json().status).toBe('available');
  });
});
