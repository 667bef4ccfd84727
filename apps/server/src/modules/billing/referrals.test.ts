import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { REFERRAL_FRIEND_DAYS, type DivanInvoices, type Referral, type Workspace } from '@divan/core';
import { signUpConfirmed } from '../../test/auth-flows';
import { platformEventsTaken, subscribe } from '../../test/billing-fixtures';
import { AUTH, createTestApp, type TestApp } from '../../test/test-app';
import { until } from '../../test/until';
import { therapist, withWorkspace, type Therapist } from '../../test/workspace-fixtures';

// Referral (issue 27 slice 5; spec §9): the friend's free month, the referrer's month off once the
// friend's first non-zero charge is paid — a credit line on the referrer's next invoice, before VAT —
// exactly once whatever the webhooks do, and nothing for a friend who had a plan before, nor for one who
// pays with the referrer's own card (the referrer under another account).
let t: TestApp;
/** The referrers pay with the sandbox's Visa, their friends with its Mastercard: two people, two cards. */
const FRIENDS_CARD = '5555 5555 5555 4444';
const DAY = 86_400_000;
const sandbox = () => t.app.services.paymentsSandbox!;

const referralOf = async (who: Therapist) => (await t.get('/api/v1/me/referral', { token: who.accessToken })).json() as Referral;
const personalWorkspace = async (who: Therapist) =>
  ((await t.get('/api/v1/workspaces', { token: who.accessToken })).json() as Workspace[])[0]!;
const trialEnd = async (wid: string) =>
  Number(
    (
      await t.rows<{ ms: string }>(
        sql`select (extract(epoch from free_trial_end) * 1000)::bigint::text as ms from workspaces where id = ${wid}`,
      )
    )[0]!.ms,
  );
async function friendWith(code: string, email: string, firstName: string): Promise<Therapist> {
  const s = await signUpConfirmed(t, email, firstName, { referralCode: code });
  return { userId: s.userId, accessToken: s.accessToken, email };
}
/** The month-off lines the provider holds for a referral (its metadata names it). */
const creditItems = (referralId: string) =>
  t.rows<{ id: string; amount: number; invoice: string | null }>(
    sql`select id, (data->>'amount')::int as amount, data->>'invoice' as invoice from sandbox_stripe_objects
        where type = 'invoiceitem' and account is null and data->'metadata'->>'divan_referral' = ${referralId}`,
  );
const subscriptionOf = async (wid: string) =>
  (
    await t.rows<{ id: string; end: string }>(
      sql`select subscription_id as id, extract(epoch from current_period_end)::bigint::text as "end" from billing_subscriptions where workspace_id = ${wid}`,
    )
  )[0]!;
/** Just after the subscription's period ends (its renewal). */
const renewalOf = async (wid: string) => new Date((Number((await subscriptionOf(wid)).end) + 60) * 1000);
async function advance(wid: string, to: Date) {
  await sandbox().billing!.renewals.advance((await subscriptionOf(wid)).id, Math.floor(to.getTime() / 1000));
  await platformEventsTaken(t);
}
const shuffled = <T>(xs: T[]) => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
};

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('the friend’s free month', () => {
  it('a code at sign-up gives 30 more days of trial; each side sees the other', async () => {
    const ana = await therapist(t, 'ana.lopez@invita.test', 'Ana');
    const mine = await referralOf(ana);
    expect(mine.code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(mine.link).toMatch(new RegExp(`/sign-up\\?ref=${mine.code}$`));
    expect((await referralOf(ana)).code).toBe(mine.code);
    expect(mine).toMatchObject({ invitedBy: null, friends: [], earned: 0 });
    // The sign-up page's welcome; a code typed in lower case with a dash is the same code.
    const typed = `${mine.code.slice(0, 4).toLowerCase()}-${mine.code.slice(4).toLowerCase()}`;
    expect((await t.get(`/api/v1/referrals/${typed}`)).json()).toEqual({ firstName: 'Ana' });
    const unknown = await t.get('/api/v1/referrals/ZZZZZZZZ');
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'referral_code_not_found']);

    const before = Date.now();
    const laura = await friendWith(mine.code, 'laura.gomez@invita.test', 'Laura');
    const ws = await personalWorkspace(laura);
    // 14 days of everyone's trial and 30 of the invitation.
    expect(await trialEnd(ws.id)).toBeGreaterThanOrEqual(before + (14 + REFERRAL_FRIEND_DAYS) * DAY - 5_000);
    expect(await trialEnd(ws.id)).toBeLessThanOrEqual(Date.now() + (14 + REFERRAL_FRIEND_DAYS) * DAY);
    expect(Date.parse(ws.plan.freeTrialEnd!)).toBe(await trialEnd(ws.id));
    expect((await referralOf(laura)).invitedBy).toMatchObject({ firstName: 'Ana' });
    expect((await referralOf(ana)).friends).toEqual([
      {
        id: expect.any(String),
        firstName: 'Laura',
        email: 'l•••@invita.test',
        joinedAt: expect.any(String),
        status: 'joined',
        refusedReason: null,
        reward: null,
      },
    ]);
  });

  it('a sign-up with an unknown or its own code is refused on the field, and nothing is made', async () => {
    const marta = await therapist(t, 'marta.pi@gmail.com', 'Marta');
    const { code } = await referralOf(marta);
    const attempt = (email: string, referralCode: string) =>
      t.post(`${AUTH}/users`, { firstName: 'Otra', email, password: 'Consulta2026', referralCode });
    const self = await attempt('MartaPi+consulta@gmail.com', code);
    expect([self.statusCode, self.json().code, self.json().fields]).toEqual([
      409,
      'referral_self',
      [{ path: 'referralCode', message: expect.stringContaining('es tuyo') }],
    ]);
    const none = await attempt('otra@invita.test', 'ZZZZ2222');
    expect([none.statusCode, none.json().code, none.json().fields?.[0]?.path]).toEqual([404, 'referral_code_not_found', 'referralCode']);
    const garbage = await attempt('otra@invita.test', 'no es un código');
    expect([garbage.statusCode, garbage.json().code, garbage.json().fields?.[0]?.path]).toEqual([400, 'invalid_argument', 'referralCode']);
    expect(await t.rows(sql`select 1 from users where email in ('otra@invita.test', 'martapi+consulta@gmail.com')`)).toEqual([]);
    // An empty field is no code at all.
    expect((await attempt('otra@invita.test', '')).statusCode).toBe(201);
  });

  it('a code entered later: only by the owner, only once, only if no workspace they own ever had a plan', async () => {
    const { code } = await referralOf(await therapist(t, 'pablo@invita.test', 'Pablo'));
    const {
      owner: nora,
      ws,
      members,
    } = await withWorkspace(t, 'Consulta Nora', {
      owner: { email: 'nora@invita.test', firstName: 'Nora' },
      members: { eva: { email: 'eva@invita.test', firstName: 'Eva', role: 'Terapeuta' } },
    });
    const redeem = (who: Therapist, wid: string, c: string) =>
      t.post(`/api/v1/workspaces/${wid}/referral`, { code: c }, { token: who.accessToken });
    expect((await redeem(members.eva, ws.id, code)).statusCode).toBe(403);
    const own = await redeem(nora, ws.id, (await referralOf(nora)).code);
    expect([own.statusCode, own.json().code]).toEqual([409, 'referral_self']);
    const before = await trialEnd(ws.id);
    const ok = await redeem(nora, ws.id, code);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(Date.parse(ok.json().freeTrialEnd)).toBe(before + REFERRAL_FRIEND_DAYS * DAY);
    const again = await redeem(nora, ws.id, code);
    expect([again.statusCode, again.json().code]).toEqual([409, 'referral_already_used']);
    // The extension is on the workspace's record.
    expect(
      await t.rows(sql`select action from audit_events where workspace_id = ${ws.id} and action = 'plan.trial_extended'`),
    ).toHaveLength(1);

    // Someone who had a plan on a workspace they own gets nothing.
    const { owner: olga, ws: paid } = await withWorkspace(t, 'Consulta Olga', { owner: { email: 'olga@invita.test', firstName: 'Olga' } });
    await subscribe(t, olga, paid.id, { planId: 'basic', interval: 'month' });
    await platformEventsTaken(t);
    const refused = await redeem(olga, paid.id, code);
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'referral_not_eligible']);
    // Even from another workspace of theirs, and even when our rows forgot it: the provider's customer remembers.
    await t.rows(sql`delete from billing_subscriptions where workspace_id = ${paid.id}`);
    const [other] = await t.rows<{ id: string }>(sql`select id from workspaces where owner_id = ${olga.userId} and id <> ${paid.id}`);
    const still = await redeem(olga, other!.id, code);
    expect([still.statusCode, still.json().code]).toEqual([409, 'referral_not_eligible']);
  });
});

describe('the referrer’s month off', () => {
  it('earned at the friend’s first paid charge, once under every webhook replayed three times in shuffled order, then on the referrer’s next invoice before VAT', async () => {
    const { owner: rosa, ws } = await withWorkspace(t, 'Consulta Rosa', { owner: { email: 'rosa@premia.test', firstName: 'Rosa' } });
    await subscribe(t, rosa, ws.id, { planId: 'advance', interval: 'year' });
    await platformEventsTaken(t);
    const laia = await friendWith((await referralOf(rosa)).code, 'laia@premia.test', 'Laia');
    const laiaWs = await personalWorkspace(laia);
    await subscribe(t, laia, laiaWs.id, { planId: 'advance', interval: 'month' }, FRIENDS_CARD);
    await platformEventsTaken(t);

    // A twelfth of Rosa's year of Premium (290 €), before VAT.
    const month = Math.round(29000 / 12);
    const earned = await until(
      () => referralOf(rosa),
      (r) => r.friends[0]?.reward?.state === 'applied',
    );
    expect(earned.friends[0]).toMatchObject({
      firstName: 'Laia',
      status: 'rewarded',
      refusedReason: null,
      reward: { amount: month, state: 'applied' },
    });
    expect(earned.earned).toBe(month);
    const referralId = earned.friends[0]!.id;
    expect(await creditItems(referralId)).toEqual([{ id: expect.any(String), amount: -month, invoice: null }]);

    // Every platform event of both customers, delivered again as if never seen, three times each, shuffled, at once.
    const customers = await t.rows<{ id: string }>(
      sql`select customer_id as id from billing_customers where workspace_id in (${ws.id}, ${laiaWs.id})`,
    );
    const list = sql.join(
      customers.map((c) => sql`${c.id}`),
      sql`, `,
    );
    const events = await t.rows<{ id: string }>(
      sql`select o.id from sandbox_stripe_objects o where o.type = 'event' and o.account is null
          and (o.data->'data'->'object'->>'customer' in (${list}) or o.data->'data'->'object'->>'id' in (${list}))`,
    );
    expect(events.length).toBeGreaterThanOrEqual(6);
    const state = async () => ({
      referral: await t.rows(
        sql`select reward_invoice_id, credit_amount, credit_item_id, refused_reason, refused_at from referrals where id = ${referralId}`,
      ),
      plans: await t.rows(
        sql`select workspace_id, plan_id, status, quantity, current_period_end, cancel_at_period_end from billing_subscriptions
            where workspace_id in (${ws.id}, ${laiaWs.id}) order by workspace_id`,
      ),
      workspaces: await t.rows(sql`select id, plan_id, free_trial_end from workspaces where id in (${ws.id}, ${laiaWs.id}) order by id`),
      divanInvoices: await t.rows(sql`select provider_invoice_id from billing_invoices order by 1`),
    });
    const settled = await state();
    // And as if the reward had never been earned: the replays race to earn it again.
    await t.rows(
      sql`update referrals set rewarded_at = null, reward_invoice_id = null, credit_amount = null, credit_item_id = null, credited_at = null
          where id = ${referralId}`,
    );
    await t.rows(
      sql`delete from billing_events where event_id in (${sql.join(
        events.map((e) => sql`${e.id}`),
        sql`, `,
      )})`,
    );
    const deliver = async (eventId: string) => {
      const { payload, signature } = await sandbox().signedEvent(eventId);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/billing/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        payload,
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const ids = events.map((e) => e.id);
    await Promise.all(
      [0, 1, 2].map(async () => {
        for (const id of shuffled(ids)) await deliver(id);
      }),
    );
    expect(await state()).toEqual(settled);
    expect(await creditItems(referralId)).toHaveLength(1);

    // Laia's second charge earns nothing more.
    await advance(laiaWs.id, await renewalOf(laiaWs.id));
    expect(await t.rows(sql`select 1 from billing_invoices where workspace_id = ${laiaWs.id}`)).toHaveLength(2);
    expect(await creditItems(referralId)).toHaveLength(1);

    // Rosa's renewal, a year on: the year less the month off, and IVA on what is left.
    await advance(ws.id, await renewalOf(ws.id));
    const items = ((await t.get(`/api/v1/workspaces/${ws.id}/billing/invoices`, { token: rosa.accessToken })).json() as DivanInvoices)
      .items;
    expect(items).toHaveLength(2);
    const renewal = items.find((i) => i.subtotal !== 29000)!;
    expect(renewal).toMatchObject({ subtotal: 29000 - month, vat: Math.round((29000 - month) * 0.21), vatRate: 21 });
    expect(renewal.description).toContain('Un mes gratis por invitar a Laia');
    expect((await creditItems(referralId))[0]!.invoice).toMatch(/^in_/);
  });

  it('a referrer without a plan keeps the month off until they subscribe; a friend’s trial alone earns nothing', async () => {
    const { owner: sara, ws } = await withWorkspace(t, 'Consulta Sara', { owner: { email: 'sara@premia.test', firstName: 'Sara' } });
    const { code } = await referralOf(sara);
    const teo = await friendWith(code, 'teo@premia.test', 'Teo');
    await friendWith(code, 'uma@premia.test', 'Uma');
    expect((await referralOf(sara)).friends.map((f) => [f.firstName, f.status])).toEqual([
      ['Uma', 'joined'],
      ['Teo', 'joined'],
    ]);
    await subscribe(t, teo, (await personalWorkspace(teo)).id, { planId: 'basic', interval: 'month' }, FRIENDS_CARD);
    await platformEventsTaken(t);
    const waiting = await until(
      () => referralOf(sara),
      (r) => r.friends.some((f) => f.status === 'rewarded'),
    );
    expect(waiting.friends.find((f) => f.firstName === 'Teo')).toMatchObject({ status: 'rewarded', reward: { state: 'waiting_plan' } });
    expect(waiting.earned).toBe(0);
    // Sara subscribes: the month off goes on her first subscription's next invoice.
    await subscribe(t, sara, ws.id, { planId: 'basic', interval: 'month' });
    await platformEventsTaken(t);
    const placed = await until(
      () => referralOf(sara),
      (r) => r.earned > 0,
    );
    expect(placed.friends.find((f) => f.firstName === 'Teo')?.reward).toEqual({ amount: 1900, state: 'applied' });
    // Her next month is free: a charge of nothing, so no Diván invoice for it.
    await advance(ws.id, await renewalOf(ws.id));
    expect(await t.rows(sql`select 1 from billing_invoices where workspace_id = ${ws.id}`)).toHaveLength(1);
  });

  it('a friend who pays with the referrer’s own card earns nothing: refused as a self-referral, however often the charge is told', async () => {
    // Carla «invites» herself under another email, and pays both plans with the same card.
    const { owner: carla, ws } = await withWorkspace(t, 'Consulta Carla', { owner: { email: 'carla@premia.test', firstName: 'Carla' } });
    await subscribe(t, carla, ws.id, { planId: 'basic', interval: 'month' });
    await platformEventsTaken(t);
    const before = Date.now();
    const otra = await friendWith((await referralOf(carla)).code, 'consulta.carla@otra.test', 'Carlota');
    const otraWs = await personalWorkspace(otra);
    // The 30 days of the invitation were given at sign-up, and stay.
    expect(await trialEnd(otraWs.id)).toBeGreaterThanOrEqual(before + (14 + REFERRAL_FRIEND_DAYS) * DAY - 5_000);
    const trial = await trialEnd(otraWs.id);
    await subscribe(t, otra, otraWs.id, { planId: 'basic', interval: 'month' }, '4242 4242 4242 4242');
    await platformEventsTaken(t);

    const refused = await until(
      () => referralOf(carla),
      (r) => r.friends[0]?.status !== 'joined',
    );
    expect(refused.friends).toEqual([
      expect.objectContaining({ firstName: 'Carlota', status: 'refused', refusedReason: 'same_card', reward: null }),
    ]);
    expect(refused.earned).toBe(0);
    const [row] = await t.rows<{
      rewarded_at: Date | null;
      refused_reason: string;
      refused_at: Date | null;
      credit_item_id: string | null;
    }>(sql`select rewarded_at, refused_reason, refused_at, credit_item_id from referrals where friend_id = ${otra.userId}`);
    expect(row).toMatchObject({ rewarded_at: null, refused_reason: 'same_card', credit_item_id: null });
    expect(row!.refused_at).not.toBeNull();
    const referralId = refused.friends[0]!.id;
    expect(await creditItems(referralId)).toEqual([]);
    expect(await trialEnd(otraWs.id)).toBe(trial);

    // Her invoice.paid told again, at once: still refused, and still nothing on Carla's next invoice.
    const [paid] = await t.rows<{ id: string }>(
      sql`select o.id from sandbox_stripe_objects o where o.type = 'event' and o.account is null and o.data->>'type' = 'invoice.paid'
          and o.data->'data'->'object'->>'customer' = (select customer_id from billing_customers where workspace_id = ${otraWs.id})`,
    );
    await Promise.all(
      [0, 1, 2].map(async () => {
        const { payload, signature } = await sandbox().signedEvent(paid!.id);
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/billing/webhook',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          payload,
        });
        expect(res.statusCode, res.body).toBe(200);
      }),
    );
    // A later charge of hers does not undo it. The sandbox names the card of each charge, the renewal's too.
    await advance(otraWs.id, await renewalOf(otraWs.id));
    expect((await referralOf(carla)).friends[0]).toMatchObject({ status: 'refused', refusedReason: 'same_card', reward: null });
    const charges = await t.rows<{ id: string }>(
      sql`select id from sandbox_stripe_objects where type = 'invoice' and account is null and data->>'status' = 'paid'
          and data->>'customer' = (select customer_id from billing_customers where workspace_id = ${otraWs.id}) order by created_at`,
    );
    expect(charges).toHaveLength(2);
    const cards = await Promise.all(charges.map((c) => sandbox().billing!.invoiceCardFingerprints(c.id)));
    expect(cards[0]).toHaveLength(1);
    expect(cards[1]).toEqual(cards[0]);
    const [carlas] = await t.rows<{ id: string }>(sql`select customer_id as id from billing_customers where workspace_id = ${ws.id}`);
    expect(await sandbox().billing!.cardFingerprints(carlas!.id)).toEqual(cards[0]);
    expect(await creditItems(referralId)).toEqual([]);
    // Carla's renewal is her full month.
    await advance(ws.id, await renewalOf(ws.id));
    const renewal = ((await t.get(`/api/v1/workspaces/${ws.id}/billing/invoices`, { token: carla.accessToken })).json() as DivanInvoices)
      .items;
    expect(renewal.map((i) => i.subtotal)).toEqual([1900, 1900]);
  });

  it('a month off waiting for the referrer’s plan is refused when that plan is paid with the friend’s card', async () => {
    const { owner: dora, ws } = await withWorkspace(t, 'Consulta Dora', { owner: { email: 'dora@premia.test', firstName: 'Dora' } });
    const otra = await friendWith((await referralOf(dora)).code, 'dora.segunda@otra.test', 'Dorotea');
    await subscribe(t, otra, (await personalWorkspace(otra)).id, { planId: 'basic', interval: 'month' });
    await platformEventsTaken(t);
    // Dora had no card on the provider then: nothing to compare, the month off earned and waiting.
    const waiting = await until(
      () => referralOf(dora),
      (r) => r.friends[0]?.status === 'rewarded',
    );
    expect(waiting.friends[0]).toMatchObject({ status: 'rewarded', reward: { state: 'waiting_plan' } });
    // She subscribes with the card that paid her «friend's» plan: the month off is not placed.
    await subscribe(t, dora, ws.id, { planId: 'basic', interval: 'month' });
    await platformEventsTaken(t);
    const refused = await until(
      () => referralOf(dora),
      (r) => r.friends[0]?.status === 'refused',
    );
    expect(refused.friends[0]).toMatchObject({ status: 'refused', refusedReason: 'same_card', reward: null });
    expect(refused.earned).toBe(0);
    expect(await creditItems(refused.friends[0]!.id)).toEqual([]);
  });

  it('when the provider cannot say which card paid, the month off is not refused on a guess', async () => {
    const { owner: eli, ws } = await withWorkspace(t, 'Consulta Eli', { owner: { email: 'eli@premia.test', firstName: 'Eli' } });
    await subscribe(t, eli, ws.id, { planId: 'basic', interval: 'month' });
    await platformEventsTaken(t);
    const otra = await friendWith((await referralOf(eli)).code, 'eli.dos@otra.test', 'Elisa');
    // The same card, but the provider fails when asked for it.
    const failing = vi.spyOn(sandbox().billing!, 'invoiceCardFingerprints').mockRejectedValue(new Error('Stripe unreachable'));
    try {
      await subscribe(t, otra, (await personalWorkspace(otra)).id, { planId: 'basic', interval: 'month' });
      await platformEventsTaken(t);
      const earned = await until(
        () => referralOf(eli),
        (r) => r.friends[0]?.reward?.state === 'applied',
      );
      expect(earned.friends[0]).toMatchObject({ status: 'rewarded', refusedReason: null, reward: { amount: 1900, state: 'applied' } });
      expect(failing).toHaveBeenCalled();
    } finally {
      failing.mockRestore();
    }
  });
});
