import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { BookingConfirmResult, BookingHold, BookingService } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { until } from '../../test/until';
import { at, bookingKit, type Kit } from './booking-flow.testkit';

// A service paid at booking, on the built-in payments sandbox: the slot is held while the visitor pays;
// the webhook books it (the session paid); paid too late for a time taken meanwhile, it is refunded.
let now = new Date('2026-11-28T10:00:00Z');
let t: TestApp;
let k: Kit;
let paid: BookingService;
const lastSegment = (url: string) => new URL(url).pathname.split('/').pop()!;
const sandbox = () => t.app.services.paymentsSandbox!;
const sessionsAt = (startsAt: string) =>
  t.rows<{ status: string; payment_status: string; payment_type: string | null; price: number }>(
    sql`select * from sessions where starts_at = ${startsAt} and status <> 'canceled'`,
  );

async function payToConfirm(startsAt: string, email: string) {
  const held = await k.hold(paid, startsAt, email);
  expect(held.statusCode, held.body).toBe(201);
  const { holdId } = json<BookingHold>(held);
  const res = await k.confirm(holdId, await k.codeFor(email));
  expect(res.statusCode, res.body).toBe(200);
  return json<BookingConfirmResult & { status: 'payment_required' }>(res);
}

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => now });
  k = await bookingKit(t, 'pagos');
  const token = k.owner.accessToken;
  expect((await t.post('/api/v1/me/payment-account', undefined, { token })).statusCode).toBe(201);
  const { url } = json<{ url: string }>(await t.post('/api/v1/me/payment-account/onboarding-link', undefined, { token }));
  await sandbox().hosted.completeOnboarding(lastSegment(url), { businessName: 'Olga Terapeuta', iban: 'ES91 2100 0418 4502 0005 1332' });
  expect(json(await t.post('/api/v1/me/payment-account/sync', undefined, { token }))).toMatchObject({ chargesEnabled: true });
  paid = await k.createService({ title: 'Sesión pagada', payment: 'pay' });
}, 60_000);
afterAll(() => t?.close());

describe('a service paid at booking', () => {
  it('answers payment_required with the checkout, keeps the slot held while paying, and books it when the webhook says paid', async () => {
    const startsAt = at('2026-11-30', '09:00');
    const result = await payToConfirm(startsAt, 'paga@correo.test');
    expect(result).toMatchObject({ status: 'payment_required', expiresAt: '2026-11-28T10:30:00.000Z' });
    expect(result.checkoutUrl).toContain('/sandbox/stripe/');
    expect(await sessionsAt(startsAt)).toEqual([]);
    now = new Date('2026-11-28T10:20:00Z');
    // Held for 30 minutes, not 10: nobody else gets it while paying.
    expect((await k.hold(paid, startsAt, 'otra@correo.test')).statusCode).toBe(409);

    expect(
      await sandbox().hosted.submitCard(lastSegment(result.checkoutUrl), { number: '4242424242424242', exp: '12/30', cvc: '123' }),
    ).toMatchObject({ kind: 'redirect' });
    const [session] = await until(
      () => sessionsAt(startsAt),
      (rows) => rows.length > 0,
    );
    expect(session).toMatchObject({ status: 'pending', payment_status: 'paid', payment_type: 'stripe_connect', price: 6000 });
    const mail = await until(
      () => t.lastMail('paga@correo.test'),
      (m) => m.subject.startsWith('Reserva confirmada'),
    );
    expect(mail.subject).toBe('Reserva confirmada: el lunes 30/11/2026 a las 09:00');
  });

  it('paid after the hold ran out for a time taken meanwhile: no booking, the money refunded and the visitor told', async () => {
    now = new Date('2026-11-28T10:00:00Z');
    const startsAt = at('2026-11-30', '10:00');
    const result = await payToConfirm(startsAt, 'tarde@correo.test');
    now = new Date('2026-11-28T10:31:00Z');
    const free = await k.createService({ title: 'Sin pago' });
    await k.book(free, startsAt, 'rapida@correo.test');

    await sandbox().hosted.submitCard(lastSegment(result.checkoutUrl), { number: '4242424242424242', exp: '12/30', cvc: '123' });
    const mail = await until(
      () => t.lastMail('tarde@correo.test'),
      (m) => m.subject.startsWith('No hemos podido'),
    );
    expect(mail.subject).toBe('No hemos podido reservar tu sesión el lunes 30/11/2026 a las 10:00');
    expect(mail.text).toContain('Te devolvemos el importe');
    expect((await sessionsAt(startsAt)).map((s) => s.payment_status)).toEqual(['pending']);
    const refunds = await until(
      () => t.rows<{ n: number }>(sql`select count(*)::int as n from sandbox_stripe_objects where type = 'refund'`),
      (r) => r[0]!.n > 0,
    );
    expect(refunds[0]!.n).toBe(1);
  });

  it("a service that saves a card: the setup checkout first, then the booking (payment pending) and the card on the new patient's file", async () => {
    now = new Date('2026-11-28T10:00:00Z');
    const card = await k.createService({ title: 'Con tarjeta', payment: 'card' });
    const startsAt = at('2026-12-02', '09:00');
    const held = await k.hold(card, startsAt, 'tarjeta@correo.test');
    const res = await k.confirm(json<BookingHold>(held).holdId, await k.codeFor('tarjeta@correo.test'));
    expect(res.statusCode, res.body).toBe(200);
    const result = json<BookingConfirmResult & { status: 'payment_required' }>(res);
    expect(result).toMatchObject({ status: 'payment_required', expiresAt: '2026-11-28T10:30:00.000Z' });
    expect(await sessionsAt(startsAt)).toEqual([]);

    expect(
      await sandbox().hosted.submitCard(lastSegment(result.checkoutUrl), { number: '4242424242424242', exp: '12/30', cvc: '123' }),
    ).toMatchObject({ kind: 'redirect' });
    const [session] = await until(
      () => sessionsAt(startsAt),
      (rows) => rows.length > 0,
    );
    expect(session).toMatchObject({ status: 'pending', payment_status: 'pending' });
    const [patient] = await t.rows<{ id: string }>(sql`select id from patients where email = 'tarjeta@correo.test'`);
    const method = await until(
      async () =>
        json<{ card: { last4: string } | null }>(
          await t.get(`/api/v1/workspaces/${k.ws.id}/patients/${patient!.id}/payment-method`, { token: k.owner.accessToken }),
        ),
      (m) => !!m.card,
    );
    expect(method.card).toMatchObject({ last4: '4242' });
    expect((await t.lastMail('tarjeta@correo.test')).subject).toBe('Reserva confirmada: el miércoles 02/12/2026 a las 09:00');
  });

  it('cancelled from the mailed link, a paid booking gives all its money back: the session reads refunded and the patient is told, once', async () => {
    // The session of the first test (30/11 at 09:00, paid 60 €), cancelled well before its start.
    now = new Date('2026-11-28T11:00:00Z');
    const mail = await until(
      () => t.lastMail('paga@correo.test'),
      (m) => m.subject.startsWith('Reserva confirmada'),
    );
    const token = /\/v1\/reservations\/manage\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const before = json<{ booking: { payment: unknown } }>(await t.get(`/api/v1/public/bookings/${token}`)).booking;
    expect(before.payment).toEqual({ amountCents: 6000, refund: 'none' });
    const res = await t.post(`/api/v1/public/bookings/${token}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    expect(json<{ booking: { status: string; payment: unknown } }>(res).booking).toMatchObject({
      status: 'canceled',
      payment: { amountCents: 6000, refund: 'pending' },
    });

    const canceledMail = (await t.app.services.mailer.list('paga@correo.test', 5)).find((m) => m.subject.startsWith('Reserva cancelada'));
    expect(canceledMail?.text).toMatch(/Te devolveremos los 60,00\s€ que pagaste/);
    const refunded = await until(
      () =>
        t.rows<{ data: { amount: number; metadata: Record<string, string> } }>(
          sql`select data from sandbox_stripe_objects where type = 'refund' and data->'metadata'->>'bookingId' is not null`,
        ),
      (rows) => rows.length > 0,
    );
    expect(refunded).toHaveLength(1);
    expect(refunded[0]!.data).toMatchObject({ amount: 6000, metadata: { purpose: 'booking' } });
    const [session] = await until(
      () =>
        t.rows<{ status: string; payment_status: string }>(
          sql`select status, payment_status from sessions where starts_at = ${at('2026-11-30', '09:00')} and status = 'canceled'`,
        ),
      (rows) => rows[0]?.payment_status === 'refunded',
    );
    expect(session).toMatchObject({ status: 'canceled', payment_status: 'refunded' });
    const told = await until(
      () => t.lastMail('paga@correo.test'),
      (m) => m.subject.startsWith('Te hemos devuelto'),
    );
    expect(told.subject).toMatch(/^Te hemos devuelto el pago de tu sesión cancelada \(60,00\s€\)$/);
    expect(told.text).toContain('a la misma tarjeta');
    expect(json<{ booking: { payment: unknown } }>(await t.get(`/api/v1/public/bookings/${token}`)).booking.payment).toEqual({
      amountCents: 6000,
      refund: 'done',
    });

    // Cancelling again is refused (already cancelled), and nothing more is refunded.
    expect((await t.post(`/api/v1/public/bookings/${token}/cancel`)).statusCode).toBe(409);
    expect(
      await t.rows(sql`select id from sandbox_stripe_objects where type = 'refund' and data->'metadata'->>'bookingId' is not null`),
    ).toHaveLength(1);
  });
});
