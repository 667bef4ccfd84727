import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { shiftDay, todayIn, type Invoice, type InvoicePayments, type PatientPaymentMethod, type PaymentAccount } from '@divan/core';
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { sandboxWebhookSecret } from '../../platform/payments/create-gateway';
import { createTestApp, type TestApp } from '../../test/test-app';
import { until } from '../../test/until';
import { clinic, W, type Clinic } from '../../test/session-fixtures';
import type { Therapist } from '../../test/workspace-fixtures';

// Card payments on the built-in sandbox (no Stripe keys): the whole path a therapist and a patient take,
// the six reasons a charge is refused, refunds with their rectifying invoice, and the webhook's rules.
let t: TestApp;
let c: Clinic;
let lucia: string;
const I = () => `${W(c.ws.id)}/invoices`;
const ok = async <T>(res: Promise<{ statusCode: number; body: string; json(): unknown }>, status = 200) => {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return r.json() as T;
};
const code = async (res: Promise<{ statusCode: number; json(): unknown }>) => {
  const r = await res;
  return [r.statusCode, (r.json() as { code: string }).code];
};
const lastSegment = (url: string) => new URL(url).pathname.split('/').pop()!;
const sandbox = () => t.app.services.paymentsSandbox!;
/** An issued invoice of `who` for the patient, of one line at `cents`. */
async function issued(who: Therapist, patientId: string | null, cents: number): Promise<Invoice> {
  const draft = await ok<Invoice>(
    t.post(
      I(),
      {
        therapistId: who.userId,
        patientId,
        ...(patientId ? {} : { buyer: { kind: 'patient', fullName: 'Sin ficha' } }),
        lines: [{ description: 'Sesión', unitPriceCents: cents }],
      },
      { token: who.accessToken },
    ),
    201,
  );
  return ok<Invoice>(t.post(`${I()}/${draft.id}/issue`, undefined, { token: who.accessToken }));
}
const paymentsOf = (id: string, who = c.tere) => ok<InvoicePayments>(t.get(`${I()}/${id}/payments`, { token: who.accessToken }));
const invoice = (id: string, who = c.tere) => ok<Invoice>(t.get(`${I()}/${id}`, { token: who.accessToken }));
const paid = (id: string) =>
  until(
    () => invoice(id),
    (i) => i.paymentStatus !== 'pending',
  );

/** The patient saves `card` through the mailed link and the sandbox's checkout page. */
async function saveCard(patientId: string, email: string, card = '4242 4242 4242 4242') {
  await ok(t.post(`${W(c.ws.id)}/patients/${patientId}/payment-method/link`, { send: true }, { token: c.tere.accessToken }), 201);
  const mail = await t.lastMail(email);
  const token = /\/pago\/([\w-]+)/.exec(mail.text)![1]!;
  const info = await ok<{ kind: string; mandate: string; mode: string }>(t.get(`/api/v1/public/payment-links/${token}`));
  expect(info).toMatchObject({ kind: 'card', mode: 'test' });
  expect(info.mandate).toContain('Tere');
  const { url } = await ok<{ url: string }>(t.post(`/api/v1/public/payment-links/${token}/checkout`));
  const done = await sandbox().hosted.submitCard(lastSegment(url), { number: card, exp: '12/30', cvc: '123' });
  expect(done).toMatchObject({ kind: 'redirect' });
  return until(
    () => ok<PatientPaymentMethod>(t.get(`${W(c.ws.id)}/patients/${patientId}/payment-method`, { token: c.tere.accessToken })),
    (m) => m.card?.last4 === card.replace(/\s/g, '').slice(-4),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'cobros');
  await ok(
    t.put(
      '/api/v1/me/billing',
      { fullName: 'Tere Terapeuta', taxId: '12345678Z', line1: 'Calle Mayor 1', city: 'Madrid', zipCode: '28013', country: 'España' },
      { token: c.tere.accessToken },
    ),
  );
  const p = await ok<{ id: string }>(
    t.post(
      `${W(c.ws.id)}/patients`,
      { firstName: 'Lucía', lastName: 'Pagadora', email: 'lucia@cobros.test', assignedTherapistId: c.tere.userId },
      { token: c.owner.accessToken },
    ),
    201,
  );
  lucia = p.id;
}, 60_000);
afterAll(() => t?.close());

describe('the therapist connects Stripe', () => {
  it('creates the Express account once, onboards on the sandbox and reads its state back', async () => {
    expect(await ok<PaymentAccount>(t.get('/api/v1/me/payment-account', { token: c.tere.accessToken }))).toMatchObject({
      status: 'not_connected',
      mode: 'test',
      provider: 'sandbox',
    });
    expect(await code(t.post('/api/v1/me/payment-account/onboarding-link', undefined, { token: c.tere.accessToken }))).toEqual([
      409,
      'payment_account_not_created',
    ]);
    expect(await ok<PaymentAccount>(t.post('/api/v1/me/payment-account', undefined, { token: c.tere.accessToken }), 201)).toMatchObject({
      status: 'pending',
      chargesEnabled: false,
    });
    expect(await code(t.post('/api/v1/me/payment-account', undefined, { token: c.tere.accessToken }))).toEqual([
      409,
      'payment_account_already_connected',
    ]);
    // A card link needs an account that can take charges.
    expect(
      await code(t.post(`${W(c.ws.id)}/patients/${lucia}/payment-method/link`, { send: false }, { token: c.tere.accessToken })),
    ).toEqual([409, 'charge_not_connected']);

    const { url } = await ok<{ url: string }>(
      t.post('/api/v1/me/payment-account/onboarding-link', undefined, { token: c.tere.accessToken }),
    );
    const back = await sandbox().hosted.completeOnboarding(lastSegment(url), {
      businessName: 'Tere Terapeuta',
      iban: 'ES91 2100 0418 4502 0005 1332',
    });
    expect(back).toEqual({ kind: 'redirect', url: 'http://divan.test/settings/billing/stripe-onboarding' });
    expect(await ok<PaymentAccount>(t.post('/api/v1/me/payment-account/sync', undefined, { token: c.tere.accessToken }))).toMatchObject({
      status: 'active',
      chargesEnabled: true,
      payoutsEnabled: true,
    });
    expect(
      (await ok<{ url: string }>(t.post('/api/v1/me/payment-account/dashboard-link', undefined, { token: c.tere.accessToken }))).url,
    ).toContain('/sandbox/stripe/dashboard/');
  });

  it("keeps the workspace's account apart, behind workspace billing", async () => {
    expect(await ok<PaymentAccount>(t.get(`${W(c.ws.id)}/payment-account`, { token: c.owner.accessToken }))).toMatchObject({
      holder: 'workspace',
      status: 'not_connected',
    });
    expect((await t.post(`${W(c.ws.id)}/payment-account`, undefined, { token: c.tere.accessToken })).statusCode).toBe(403);
  });
});

describe('the patient saves a card and is charged', () => {
  it('saves the card from the mailed link (setup checkout), seen in the billing tab with automatic charges on', async () => {
    const method = await saveCard(lucia, 'lucia@cobros.test');
    expect(method).toMatchObject({ therapistCanCharge: true, card: { brand: 'visa', last4: '4242' }, autoCharge: true });
    expect(method.mandateAcceptedAt).not.toBeNull();
  });

  it('charges a pending invoice off-session; the webhook marks it paid', async () => {
    const inv = await issued(c.tere, lucia, 6000);
    expect((await paymentsOf(inv.id)).chargeBlock).toBeNull();
    const out = await ok<{ status: string; message: string }>(t.post(`${I()}/${inv.id}/charge`, undefined, { token: c.tere.accessToken }));
    expect(out.status).toBe('succeeded');
    expect(await paid(inv.id)).toMatchObject({ paymentStatus: 'paid', paymentType: 'stripe_connect' });
    expect(await code(t.post(`${I()}/${inv.id}/charge`, undefined, { token: c.tere.accessToken }))).toEqual([409, 'charge_not_chargeable']);
  });

  it('a double click charges once: both clicks ask for the same PaymentIntent', async () => {
    const inv = await issued(c.tere, lucia, 7000);
    const both = await Promise.all([
      t.post(`${I()}/${inv.id}/charge`, undefined, { token: c.tere.accessToken }),
      t.post(`${I()}/${inv.id}/charge`, undefined, { token: c.tere.accessToken }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual(expect.arrayContaining([200]));
    await paid(inv.id);
    const intents = await t.rows<{ n: number }>(
      sql`select count(*)::int as n from sandbox_stripe_objects where type = 'payment_intent' and data->'metadata'->>'invoiceId' = ${inv.id}`,
    );
    expect(intents[0]!.n).toBe(1);
    expect((await paymentsOf(inv.id)).chargedCents).toBe(7000);
  });

  it('refuses each case of §5 with its code, the same the button shows', async () => {
    const tooLow = await issued(c.tere, lucia, 40);
    expect((await paymentsOf(tooLow.id)).chargeBlock).toBe('charge_amount_too_low');
    expect(await code(t.post(`${I()}/${tooLow.id}/charge`, undefined, { token: c.tere.accessToken }))).toEqual([
      409,
      'charge_amount_too_low',
    ]);
    const noPatient = await issued(c.tere, null, 6000);
    expect((await paymentsOf(noPatient.id)).chargeBlock).toBe('charge_no_patient');
    const noCard = await issued(c.tere, c.ana, 6000);
    expect((await paymentsOf(noCard.id)).chargeBlock).toBe('charge_no_payment_method');
    // Tomás's payments go to the workspace: its invoices are paid by link.
    const workspaceInvoice = await issuedByWorkspace();
    expect((await paymentsOf(workspaceInvoice.id, c.owner)).chargeBlock).toBe('charge_workspace_invoice');
    // «Cobros automáticos» off.
    await ok(t.put(`${W(c.ws.id)}/patients/${lucia}/payment-method`, { autoCharge: false }, { token: c.tere.accessToken }));
    const off = await issued(c.tere, lucia, 6000);
    expect(await code(t.post(`${I()}/${off.id}/charge`, undefined, { token: c.tere.accessToken }))).toEqual([
      409,
      'charge_no_payment_method',
    ]);
    await ok(t.put(`${W(c.ws.id)}/patients/${lucia}/payment-method`, { autoCharge: true }, { token: c.tere.accessToken }));
    const draft = await ok<Invoice>(
      t.post(I(), { patientId: lucia, lines: [{ description: 'Sesión', unitPriceCents: 6000 }] }, { token: c.tere.accessToken }),
      201,
    );
    expect((await paymentsOf(draft.id)).chargeBlock).toBe('charge_not_chargeable');
  });

  it('a declined card is a Spanish 402 and the attempt stays, failed', async () => {
    await saveCard(lucia, 'lucia@cobros.test', '4000 0000 0000 9995');
    const inv = await issued(c.tere, lucia, 6000);
    const res = await t.post(`${I()}/${inv.id}/charge`, undefined, { token: c.tere.accessToken });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: 'card_declined', message: expect.stringContaining('rechazado') });
    const p = await paymentsOf(inv.id);
    expect(p.attempts[0]).toMatchObject({ status: 'failed', error: expect.stringContaining('rechazado') });
    expect((await invoice(inv.id)).paymentStatus).toBe('pending');
    await saveCard(lucia, 'lucia@cobros.test');
  });
});

/** An event as the provider would send it, signed with the sandbox's secret. */
function signed(type: string, object: Record<string, unknown>) {
  const account = object.account as string | undefined;
  const payload = JSON.stringify({
    id: `evt_test_${randomUUID()}`,
    object: 'event',
    type,
    account: account ?? null,
    created: Math.floor(Date.now() / 1000) - 3600,
    livemode: false,
    data: { object },
  });
  return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret: sandboxWebhookSecret(t.config.appSecret) }) };
}

async function issuedByWorkspace(): Promise<Invoice> {
  await ok(
    t.put(
      `${W(c.ws.id)}/billing-info`,
      { fullName: 'Clínica Cobros SL', taxId: 'B12345674', line1: 'Calle Mayor 2', city: 'Madrid', zipCode: '28013', country: 'España' },
      { token: c.owner.accessToken },
    ),
  );
  const draft = await ok<Invoice>(
    t.post(
      I(),
      { therapistId: c.tomas.userId, patientId: c.bruno, lines: [{ description: 'Sesión', unitPriceCents: 5555 }] },
      { token: c.owner.accessToken },
    ),
    201,
  );
  return ok<Invoice>(t.post(`${I()}/${draft.id}/issue`, undefined, { token: c.owner.accessToken }));
}

describe('refunds', () => {
  it('refunds part, then the rest: each with its rectifying invoice, the invoice ends refunded', async () => {
    const inv = await issued(c.tere, lucia, 6000);
    await ok(t.post(`${I()}/${inv.id}/charge`, undefined, { token: c.tere.accessToken }));
    await paid(inv.id);
    const part = await ok<{ amountCents: number; rectifying: { id: string; number: string } }>(
      t.post(`${I()}/${inv.id}/refund`, { amountCents: 2000, reason: 'Sesión acortada' }, { token: c.tere.accessToken }),
    );
    expect(part.amountCents).toBe(2000);
    const rect = await invoice(part.rectifying.id);
    expect(rect).toMatchObject({
      kind: 'rectifying',
      totalCents: -2000,
      rectifies: { id: inv.id, method: 'difference' },
      paymentStatus: 'refunded',
    });
    expect(await invoice(inv.id)).toMatchObject({ paymentStatus: 'paid' });
    expect((await paymentsOf(inv.id)).refundableCents).toBe(4000);
    expect(
      await code(t.post(`${I()}/${inv.id}/refund`, { amountCents: 4001, reason: 'Demasiado' }, { token: c.tere.accessToken })),
    ).toEqual([400, 'refund_amount_invalid']);
    const rest = await ok<{ amountCents: number }>(
      t.post(`${I()}/${inv.id}/refund`, { reason: 'Cancelación' }, { token: c.tere.accessToken }),
    );
    expect(rest.amountCents).toBe(4000);
    expect(
      await until(
        () => invoice(inv.id),
        (i) => i.paymentStatus === 'refunded',
      ),
    ).toMatchObject({ paymentStatus: 'refunded' });
    expect(await code(t.post(`${I()}/${inv.id}/refund`, { reason: 'Otra vez' }, { token: c.tere.accessToken }))).toEqual([
      409,
      'refund_not_allowed',
    ]);
  });

  it('the money goes back even when the rectifying invoice cannot be issued now (billing data since emptied)', async () => {
    const inv = await issued(c.tere, lucia, 3000);
    await ok(t.post(`${I()}/${inv.id}/charge`, undefined, { token: c.tere.accessToken }));
    await paid(inv.id);
    await ok(t.put('/api/v1/me/billing', { taxId: '' }, { token: c.tere.accessToken }));
    const out = await ok<{ amountCents: number; rectifying: unknown }>(
      t.post(`${I()}/${inv.id}/refund`, { reason: 'Cancelada' }, { token: c.tere.accessToken }),
    );
    expect(out).toMatchObject({ amountCents: 3000, rectifying: null });
    expect(
      await until(
        () => invoice(inv.id),
        (i) => i.paymentStatus === 'refunded',
      ),
    ).toMatchObject({ paymentStatus: 'refunded' });
    await ok(t.put('/api/v1/me/billing', { taxId: '12345678Z' }, { token: c.tere.accessToken }));
  });

  it('an invoice paid by hand is not refunded through Stripe', async () => {
    const inv = await issued(c.tere, lucia, 6000);
    await ok(t.post(`${I()}/${inv.id}/payment`, { paymentType: 'cash' }, { token: c.tere.accessToken }));
    expect(await code(t.post(`${I()}/${inv.id}/refund`, { reason: 'No' }, { token: c.tere.accessToken }))).toEqual([
      409,
      'refund_not_allowed',
    ]);
  });
});

describe('pay-by-link', () => {
  it('mails a link; paying on the checkout page marks the invoice paid by the webhook, not by the redirect', async () => {
    await ok(t.put(`${W(c.ws.id)}/patients/${lucia}/payment-method`, { autoCharge: false }, { token: c.tere.accessToken }));
    const inv = await issued(c.tere, lucia, 4500);
    expect(await paymentsOf(inv.id)).toMatchObject({ payLinkBlock: null, payLinkTo: 'lucia@cobros.test' });
    const link = await ok<{ url: string; mailedTo: string }>(
      t.post(`${I()}/${inv.id}/pay-link`, { send: true }, { token: c.tere.accessToken }),
      201,
    );
    expect(link.mailedTo).toBe('lucia@cobros.test');
    const token = lastSegment(link.url);
    expect(await ok(t.get(`/api/v1/public/payment-links/${token}`))).toMatchObject({
      kind: 'invoice',
      invoice: { number: inv.number, totalCents: 4500, paid: false },
    });
    const { url } = await ok<{ url: string }>(t.post(`/api/v1/public/payment-links/${token}/checkout`));
    expect((await invoice(inv.id)).paymentStatus).toBe('pending');
    expect(await sandbox().hosted.submitCard(lastSegment(url), { number: '4242424242424242', exp: '12/30', cvc: '123' })).toMatchObject({
      kind: 'redirect',
    });
    expect(await paid(inv.id)).toMatchObject({ paymentStatus: 'paid' });
    expect(await code(t.post(`/api/v1/public/payment-links/${token}/checkout`))).toEqual([409, 'payment_link_used']);
    expect(await code(t.get('/api/v1/public/payment-links/abcdefghijklmnopqrstuvwxyz0123456789'))).toEqual([404, 'payment_link_invalid']);
    await ok(t.put(`${W(c.ws.id)}/patients/${lucia}/payment-method`, { autoCharge: true }, { token: c.tere.accessToken }));
  });
});

describe('the webhook', () => {
  it('refuses a bad signature with 400 and changes nothing', async () => {
    // Scoped to this event: the sandbox may still be delivering earlier tests' events meanwhile.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=deadbeef' },
      payload: '{"id":"evt_x","type":"payment_intent.succeeded"}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'webhook_signature_invalid' });
    expect(await t.rows<{ n: number }>(sql`select count(*)::int as n from payment_events where event_id = 'evt_x'`)).toEqual([{ n: 0 }]);
  });

  it('a replayed event is acknowledged and changes nothing; an old event arriving late does not undo a newer state', async () => {
    const [ev] = await t.rows<{ id: string }>(
      sql`select id from sandbox_stripe_objects where type = 'event' and data->>'type' = 'payment_intent.succeeded' order by created_at limit 1`,
    );
    const { payload, signature: header } = await sandbox().signedEvent(ev!.id);
    const replay = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      payload,
    });
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, duplicate: true });

    // The declined attempt's failure, delivered again under a new id after the success: the paid invoice stays paid.
    const inv = await issued(c.tere, lucia, 6000);
    await ok(t.post(`${I()}/${inv.id}/charge`, undefined, { token: c.tere.accessToken }));
    await paid(inv.id);
    const [attempt] = await t.rows<{ id: string; intent_id: string; account_id: string }>(
      sql`select id, intent_id, account_id from invoice_payments where invoice_id = ${inv.id}`,
    );
    const late = signed('payment_intent.payment_failed', {
      id: attempt!.intent_id,
      object: 'payment_intent',
      account: attempt!.account_id,
      amount: 6000,
      currency: 'eur',
      status: 'requires_payment_method',
      metadata: { invoiceId: inv.id, attemptId: attempt!.id },
      last_payment_error: { code: 'card_declined' },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': late.header },
      payload: late.payload,
    });
    expect(res.json()).toEqual({ received: true, duplicate: false });
    expect(await invoice(inv.id)).toMatchObject({ paymentStatus: 'paid' });
    expect((await paymentsOf(inv.id)).attempts[0]).toMatchObject({ status: 'succeeded' });
  });
});

describe('the automatic charge (Advance)', () => {
  const completeFor = async (n: number) => {
    const { session } = await ok<{ session: { id: string } }>(
      t.post(
        `${W(c.ws.id)}/sessions`,
        {
          patientId: lucia,
          therapistId: c.tere.userId,
          day: shiftDay(todayIn('Europe/Madrid'), -n),
          from: '09:00',
          to: '09:50',
          price: 6000,
        },
        { token: c.tere.accessToken },
      ),
      201,
    );
    await ok(t.post(`${W(c.ws.id)}/sessions/${session.id}/complete`, undefined, { token: c.tere.accessToken }));
    const run = await until(
      () => t.rows<{ invoice_id: string | null }>(sql`select invoice_id from invoice_auto_runs where session_id = ${session.id}`),
      (r) => !!r[0]?.invoice_id,
    );
    return run[0]!.invoice_id!;
  };

  it('charges the invoice issued automatically; a declined card is told to the therapist by mail', async () => {
    await ok(t.put(`${W(c.ws.id)}/invoice-settings`, { autoInvoice: true }, { token: c.tere.accessToken }));
    const first = await completeFor(1);
    expect(await paid(first)).toMatchObject({ paymentStatus: 'paid', paymentType: 'stripe_connect' });

    await saveCard(lucia, 'lucia@cobros.test', '4000 0000 0000 9995');
    const second = await completeFor(2);
    const mail = await until(
      () => t.app.services.mailer.list('tere-cobros@sesiones.test', 1),
      (m) => !!m[0]?.subject.includes('No se pudo cobrar'),
    );
    expect(mail[0]!.subject).toContain('No se pudo cobrar la factura');
    expect(mail[0]!.text).toContain('rechazado');
    expect((await invoice(second)).paymentStatus).toBe('pending');
    await ok(t.put(`${W(c.ws.id)}/invoice-settings`, { autoInvoice: false }, { token: c.tere.accessToken }));
  });
});
