// The sandbox's hosted pages: onboarding, Checkout (setup and payment, 3-D Secure), dashboard, in Spanish, without JavaScript.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openSandbox, PUBLIC_URL, type SandboxKit } from './sandbox-test-kit';
import { TEST_BANNER } from './sandbox-pages.html';

let k: SandboxKit;
let account: string;
beforeAll(async () => {
  k = await openSandbox();
  account = await k.readyAccount('Consulta <b>Tere</b> & Cía');
}, 60_000);
afterAll(() => k?.close());

const get = (url: string) => k.app.inject({ method: 'GET', url: url.startsWith('http') ? new URL(url).pathname : url });
const pathOf = (url: string) => new URL(url).pathname;
const NBSP = '\u00a0';

describe('onboarding', () => {
  it('shows a form prefilled with the test IBAN; completing it enables the account, sends account.updated and returns to return_url', async () => {
    const { id } = await k.sandbox.createAccount({
      email: 'lola@divan.test',
      businessName: 'Lola <script>alert(1)</script>',
      metadata: {},
    });
    const { url } = await k.sandbox.onboardingLink(id, {
      refreshUrl: `${PUBLIC_URL}/pagos/refrescar`,
      returnUrl: `${PUBLIC_URL}/pagos/listo`,
    });
    const page = await get(url);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain(TEST_BANNER);
    expect(page.body).toContain('value="ES91 2100 0418 4502 0005 1332"');
    expect(page.body).toContain('Completar datos de prueba');
    expect(page.body).not.toContain('<script>');
    expect(page.body).toContain('Lola &#60;script&#62;alert(1)&#60;/script&#62;');

    const bad = await k.form(pathOf(url), { businessName: 'Lola', iban: 'ES00 0000' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('El IBAN no es válido');
    expect((await k.sandbox.retrieveAccount(id)).chargesEnabled).toBe(false);

    const done = await k.form(pathOf(url), { businessName: 'Lola Psicología', iban: 'ES91 2100 0418 4502 0005 1332' });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`${PUBLIC_URL}/pagos/listo`);
    expect(await k.sandbox.retrieveAccount(id)).toEqual({ id, detailsSubmitted: true, chargesEnabled: true, payoutsEnabled: true });
    expect((await k.delivery('account.updated', id)).object).toMatchObject({
      business_profile: { name: 'Lola Psicología' },
      charges_enabled: true,
      external_accounts: { data: [{ last4: '1332' }] },
    });

    // Single use: the link, used, sends to refresh_url.
    const again = await get(url);
    expect([again.statusCode, again.headers.location]).toEqual([303, `${PUBLIC_URL}/pagos/refrescar`]);
    expect((await k.form(pathOf(url), { businessName: 'Otra', iban: 'ES91 2100 0418 4502 0005 1332' })).headers.location).toBe(
      `${PUBLIC_URL}/pagos/refrescar`,
    );
  });

  it('sends an expired link to refresh_url, and an unknown one to a Spanish 404', async () => {
    const { id } = await k.sandbox.createAccount({ email: null, businessName: null, metadata: {} });
    const { url } = await k.sandbox.onboardingLink(id, { refreshUrl: `${PUBLIC_URL}/r`, returnUrl: `${PUBLIC_URL}/ok` });
    k.advance(6 * 60_000);
    try {
      expect((await get(url)).headers.location).toBe(`${PUBLIC_URL}/r`);
    } finally {
      k.advance(-6 * 60_000);
    }
    for (const path of [
      '/sandbox/stripe/connect/acctlink_000000000000000000000000',
      '/sandbox/stripe/connect/nope',
      '/sandbox/stripe/checkout/cs_test_x',
      '/sandbox/stripe/dashboard/acct_x',
      '/sandbox/stripe/otra/cosa',
    ]) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.body).toContain('Esta página no existe');
      expect(res.body).toContain(TEST_BANNER);
    }
  });
});

describe('checkout, setup mode', () => {
  it('saves the card through the page: setupIntentCard returns it, setup_intent.succeeded and checkout.session.completed are sent', async () => {
    const customer = await k.sandbox.createCustomer(account, { email: 'ana@divan.test', name: 'Ana', metadata: {} });
    const checkout = await k.sandbox.checkoutSetup(account, {
      customerId: customer.id,
      successUrl: `${PUBLIC_URL}/pago/tok?s={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${PUBLIC_URL}/pago/tok`,
      metadata: { patient: 'p9', holder: 'user:1' },
    });
    expect(checkout.url).toBe(`${PUBLIC_URL}/sandbox/stripe/checkout/${checkout.id}`);
    expect(checkout.id).toMatch(/^cs_test_[0-9A-Za-z]{24}$/);
    const page = await get(checkout.url);
    expect(page.body).toContain('Guardar tarjeta para pagos futuros');
    expect(page.body).toContain('value="4242 4242 4242 4242"');
    expect(page.body).toContain('4000 0000 0000 9995');
    expect(page.body).toContain('Consulta &#60;b&#62;Tere&#60;/b&#62; &#38; Cía');
    expect(page.body).toContain(`href="${PUBLIC_URL}/pago/tok"`);

    const bad = await k.form(pathOf(checkout.url), { number: '4242 4242 4242 4241', exp: '12/40', cvc: '123' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('El número de la tarjeta no es válido');

    const res = await k.form(pathOf(checkout.url), { number: '4242 4242 4242 4242', exp: '07/39', cvc: '123' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${PUBLIC_URL}/pago/tok?s=${checkout.id}`);

    const completed = await k.delivery('checkout.session.completed', checkout.id);
    expect(completed).toMatchObject({
      account,
      object: {
        mode: 'setup',
        status: 'complete',
        customer: customer.id,
        metadata: { patient: 'p9', holder: 'user:1' },
        setup_intent: expect.stringMatching(/^seti_/),
      },
    });
    const setupIntentId = completed.object.setup_intent as string;
    expect(await k.sandbox.setupIntentCard(account, setupIntentId)).toEqual({
      customerId: customer.id,
      card: { paymentMethodId: expect.stringMatching(/^pm_[0-9A-Za-z]{24}$/), brand: 'visa', last4: '4242', expMonth: 7, expYear: 2039 },
    });
    expect((await k.delivery('setup_intent.succeeded', setupIntentId)).object).toMatchObject({
      status: 'succeeded',
      usage: 'off_session',
      customer: customer.id,
      metadata: { patient: 'p9', holder: 'user:1' },
    });

    // Done: the page says so; a second submit (a double tap) goes where the first went, and saves nothing.
    expect((await get(checkout.url)).body).toContain('La tarjeta ya se ha guardado');
    const twice = await k.form(pathOf(checkout.url), { number: '4242 4242 4242 4242', exp: '07/39', cvc: '123' });
    expect([twice.statusCode, twice.headers.location]).toEqual([303, res.headers.location]);
    const rows = (await k.db.execute(
      sql`SELECT count(*)::int AS n FROM sandbox_stripe_objects WHERE type = 'setup_intent' AND data->>'customer' = ${customer.id}`,
    )) as unknown as { rows: { n: number }[] };
    expect(rows.rows[0]!.n).toBe(1);
  });

  it('declines 4000 0000 0000 0002 on the page, and a 3-D Secure card waits for the bank’s answer', async () => {
    const customer = await k.sandbox.createCustomer(account, { email: null, name: 'Bea', metadata: {} });
    const checkout = await k.sandbox.checkoutSetup(account, {
      customerId: customer.id,
      successUrl: `${PUBLIC_URL}/ok`,
      cancelUrl: `${PUBLIC_URL}/no`,
      metadata: {},
    });
    const declined = await k.form(pathOf(checkout.url), { number: '4000000000000002', exp: '12/40', cvc: '123' });
    expect(declined.body).toContain('Tarjeta rechazada');
    const auth = await k.form(pathOf(checkout.url), { number: '4000 0027 6000 3184', exp: '12/40', cvc: '123' });
    expect(auth.body).toContain('Autenticación del banco (prueba)');
    expect((await get(checkout.url)).body).toContain('Autenticación del banco (prueba)');
    const approved = await k.form(`${pathOf(checkout.url)}/autenticar`, { decision: 'approve' });
    expect([approved.statusCode, approved.headers.location]).toEqual([303, `${PUBLIC_URL}/ok`]);
    const completed = await k.delivery('checkout.session.completed', checkout.id);
    expect((await k.sandbox.setupIntentCard(account, completed.object.setup_intent as string)).card).toMatchObject({ last4: '3184' });
  });
});

describe('checkout, payment mode', () => {
  const pay = (key: string, amount = 6000) =>
    k.sandbox.checkoutPayment(account, {
      customerId: null,
      customerEmail: 'ana@divan.test',
      amount,
      description: 'Factura 2025-0007',
      successUrl: `${PUBLIC_URL}/pago/tok?pagado=1`,
      cancelUrl: `${PUBLIC_URL}/pago/tok`,
      metadata: { invoice: 'inv-7', attempt: '1' },
      idempotencyKey: key,
    });

  it('shows the amount in euros; 9995 is refused on the page, then 4242 pays: PaymentIntent with the metadata, session paid, three events', async () => {
    const checkout = await pay('invoice-7-link-1');
    expect(await pay('invoice-7-link-1')).toEqual(checkout);
    const page = await get(checkout.url);
    expect(page.body).toContain(`60,00${NBSP}€`);
    expect(page.body).toContain('Factura 2025-0007');

    const refused = await k.form(pathOf(checkout.url), { number: '4000 0000 0000 9995', exp: '12/40', cvc: '123' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('Tarjeta rechazada');
    expect(refused.body).toContain('Tu tarjeta no tiene fondos suficientes.');
    expect(refused.body).toContain('value="4000 0000 0000 9995"');
    const session = (await k.sandbox.hosted.checkout(checkout.id))!.session;
    const failed = await k.delivery('payment_intent.payment_failed', session.payment_intent!);
    expect(failed.object).toMatchObject({
      metadata: { invoice: 'inv-7', attempt: '1' },
      last_payment_error: { decline_code: 'insufficient_funds' },
    });

    const paid = await k.form(pathOf(checkout.url), { number: '4242 4242 4242 4242', exp: '12/40', cvc: '123' });
    expect([paid.statusCode, paid.headers.location]).toEqual([303, `${PUBLIC_URL}/pago/tok?pagado=1`]);
    const succeeded = await k.delivery('payment_intent.succeeded', session.payment_intent!);
    expect(succeeded.object).toMatchObject({
      status: 'succeeded',
      amount: 6000,
      description: 'Factura 2025-0007',
      metadata: { invoice: 'inv-7', attempt: '1' },
    });
    await k.until(() => k.eventsOf('charge.succeeded').some((e) => e.object.payment_intent === session.payment_intent), 'charge.succeeded');
    expect((await k.delivery('checkout.session.completed', checkout.id)).object).toMatchObject({
      mode: 'payment',
      status: 'complete',
      payment_status: 'paid',
      payment_intent: session.payment_intent,
      amount_total: 6000,
    });
    expect(await k.sandbox.retrievePaymentIntent(account, session.payment_intent!)).toMatchObject({ status: 'succeeded', amount: 6000 });
    expect((await get(checkout.url)).body).toContain('Este pago ya se ha completado');
  });

  it('asks the bank’s authentication for 3184: Rechazar fails it, Autorizar pays', async () => {
    const checkout = await pay('invoice-8-link-1', 12345);
    const step = await k.form(pathOf(checkout.url), { number: '4000002760003184', exp: '12/40', cvc: '123' });
    expect(step.statusCode).toBe(200);
    expect(step.body).toContain('Autenticación del banco (prueba)');
    expect(step.body).toContain(`123,45${NBSP}€`);
    const rejected = await k.form(`${pathOf(checkout.url)}/autenticar`, { decision: 'reject' });
    expect(rejected.body).toContain('Autenticación rechazada');
    const pi = (await k.sandbox.hosted.checkout(checkout.id))!.session.payment_intent!;
    expect((await k.delivery('payment_intent.payment_failed', pi)).object).toMatchObject({
      last_payment_error: { code: 'payment_intent_authentication_failure' },
    });

    await k.form(pathOf(checkout.url), { number: '4000002760003184', exp: '12/40', cvc: '123' });
    const approved = await k.form(`${pathOf(checkout.url)}/autenticar`, { decision: 'approve' });
    expect(approved.statusCode).toBe(303);
    expect(await k.sandbox.retrievePaymentIntent(account, pi)).toMatchObject({ status: 'succeeded', amount: 12345 });
  });

  it('expires a session after 24 hours: a clear message, checkout.session.expired, its pending PaymentIntent canceled', async () => {
    const checkout = await pay('invoice-9-link-1');
    await k.form(pathOf(checkout.url), { number: '4000000000000341', exp: '12/40', cvc: '123' });
    const idle = await pay('invoice-10-link-1');
    k.advance(25 * 3_600_000);
    try {
      const page = await get(checkout.url);
      expect(page.body).toContain('ha caducado');
      await k.delivery('checkout.session.expired', checkout.id);
      const pi = (await k.sandbox.hosted.checkout(checkout.id))!.session.payment_intent!;
      expect((await k.sandbox.retrievePaymentIntent(account, pi)).status).toBe('canceled');
      const late = await k.form(pathOf(checkout.url), { number: '4242424242424242', exp: '12/40', cvc: '123' });
      expect(late.body).toContain('ha caducado');
      // Sessions nobody opens again expire by the hourly sweep.
      expect(await k.sandbox.hosted.expireSessions()).toBeGreaterThanOrEqual(1);
      expect((await k.delivery('checkout.session.expired', idle.id)).object).toMatchObject({ status: 'expired', url: null });
    } finally {
      k.advance(-25 * 3_600_000);
    }
  });
});

describe('dashboard', () => {
  it('lists the account’s payments and refunds', async () => {
    const card = await k.savedCard(account, '4242424242424242');
    const pi = await k.sandbox.chargeOffSession(account, {
      ...card,
      amount: 4500,
      description: 'Factura <2025-0010>',
      metadata: {},
      idempotencyKey: 'dash-1',
    });
    await k.sandbox.refund(account, { paymentIntentId: pi.id, amount: 1500, metadata: {}, idempotencyKey: 'dash-refund-1' });
    const { url } = await k.sandbox.dashboardLink(account);
    const page = await get(url);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(TEST_BANNER);
    expect(page.body).toContain(pi.id);
    expect(page.body).toContain(`45,00${NBSP}€`);
    expect(page.body).toContain(`15,00${NBSP}€`);
    expect(page.body).toContain('Factura &#60;2025-0010&#62;');
    expect(page.body).toContain('visa ···· 4242');
  });
});
