import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanionCard, CompanionInvoice, Invoice, PatientPaymentMethod, PaymentAccount } from '@divan/core';
import { createTestApp, type TestApp } from '../../test/test-app';
import { until } from '../../test/until';
import { clinic, W, type Clinic } from '../../test/session-fixtures';
import { connectedPatient, expectError, type PatientSession } from '../patient-accounts/patient-accounts.testkit';

// The companion's invoices and saved card on the built-in payments sandbox (no Stripe keys).
let t: TestApp;
let c: Clinic;
let luciaFile: string;
let pabloFile: string;
let lucia: PatientSession;
let pablo: PatientSession;

const P = (fileId: string) => `/api/v1/patient/files/${fileId}`;
const ok = async <T>(res: Promise<{ statusCode: number; body: string }>, status = 200) => {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return JSON.parse(r.body) as T;
};
const lastSegment = (url: string) => new URL(url).pathname.split('/').pop()!;
const sandbox = () => t.app.services.paymentsSandbox!;
const invoicesOf = (fileId: string, who: PatientSession) =>
  ok<{ items: CompanionInvoice[] }>(t.get(`${P(fileId)}/invoices`, { token: who.accessToken })).then((r) => r.items);
const cardOf = (fileId: string, who: PatientSession) => ok<CompanionCard>(t.get(`${P(fileId)}/card`, { token: who.accessToken }));

async function draft(patientId: string, cents: number): Promise<Invoice> {
  return ok<Invoice>(
    t.post(
      `${W(c.ws.id)}/invoices`,
      { therapistId: c.tere.userId, patientId, lines: [{ description: 'Sesión', unitPriceCents: cents }] },
      { token: c.tere.accessToken },
    ),
    201,
  );
}
async function issued(patientId: string, cents: number): Promise<Invoice> {
  const d = await draft(patientId, cents);
  return ok<Invoice>(t.post(`${W(c.ws.id)}/invoices/${d.id}/issue`, undefined, { token: c.tere.accessToken }));
}
async function patient(firstName: string, email: string) {
  return (
    await ok<{ id: string }>(
      t.post(
        `${W(c.ws.id)}/patients`,
        { firstName, lastName: 'Companion', email, assignedTherapistId: c.tere.userId },
        { token: c.owner.accessToken },
      ),
      201,
    )
  ).id;
}

let first: Invoice;
let tooLow: Invoice;

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'cobros-companion');
  await ok(
    t.put(
      '/api/v1/me/billing',
      { fullName: 'Tere Terapeuta', taxId: '12345678Z', line1: 'Calle Mayor 1', city: 'Madrid', zipCode: '28013', country: 'España' },
      { token: c.tere.accessToken },
    ),
  );
  luciaFile = await patient('Lucía', 'lucia@cobros-companion.test');
  pabloFile = await patient('Pablo', 'pablo@cobros-companion.test');
  lucia = await connectedPatient(t, c.tere.accessToken, c.ws.id, luciaFile, 'lucia@cobros-companion.test');
  pablo = await connectedPatient(t, c.tere.accessToken, c.ws.id, pabloFile, 'pablo@cobros-companion.test');
  first = await issued(luciaFile, 6000);
  await draft(luciaFile, 1000);
}, 60_000);
afterAll(() => t?.close());

describe('before the therapist takes card payments', () => {
  it('lists the issued invoices only (never a draft), not payable; their PDF downloads', async () => {
    const items = await invoicesOf(luciaFile, lucia);
    expect(items).toEqual([
      {
        id: first.id,
        number: first.number,
        issueDate: first.issueDate,
        kind: 'ordinary',
        status: 'issued',
        sellerName: 'Tere Terapeuta',
        totalCents: 6000,
        paymentStatus: 'pending',
        paidAt: null,
        amountDueCents: 6000,
        payable: false,
      },
    ]);
    expectError(
      await t.post(`${P(luciaFile)}/invoices/${first.id}/pay`, {}, { token: lucia.accessToken }),
      409,
      'companion_invoice_not_payable',
    );
    const pdf = await t.get(`${P(luciaFile)}/invoices/${first.id}/pdf`, { token: lucia.accessToken });
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(first.number!);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('no card to save: no mandate, no checkout, no switch', async () => {
    expect(await cardOf(luciaFile, lucia)).toEqual({
      mode: 'test',
      therapistName: 'Tere',
      canSave: false,
      card: null,
      autoCharge: true,
      mandate: null,
    });
    expectError(await t.post(`${P(luciaFile)}/card/setup`, {}, { token: lucia.accessToken }), 409, 'companion_card_not_available');
    expectError(
      await t.put(`${P(luciaFile)}/card/auto-charge`, { enabled: false }, { token: lucia.accessToken }),
      409,
      'companion_card_not_saved',
    );
  });
});

describe('once the therapist takes card payments', () => {
  beforeAll(async () => {
    await ok<PaymentAccount>(t.post('/api/v1/me/payment-account', undefined, { token: c.tere.accessToken }), 201);
    const { url } = await ok<{ url: string }>(
      t.post('/api/v1/me/payment-account/onboarding-link', undefined, { token: c.tere.accessToken }),
    );
    await sandbox().hosted.completeOnboarding(lastSegment(url), { businessName: 'Tere Terapeuta', iban: 'ES91 2100 0418 4502 0005 1332' });
    expect(await ok<PaymentAccount>(t.post('/api/v1/me/payment-account/sync', undefined, { token: c.tere.accessToken }))).toMatchObject({
      status: 'active',
    });
    tooLow = await issued(luciaFile, 40);
  });

  it('pays an invoice through a checkout back to the companion; the webhook marks it paid, and it cannot be paid again', async () => {
    expect((await invoicesOf(luciaFile, lucia)).find((i) => i.id === first.id)).toMatchObject({ payable: true, amountDueCents: 6000 });
    const { url } = await ok<{ url: string }>(t.post(`${P(luciaFile)}/invoices/${first.id}/pay`, {}, { token: lucia.accessToken }));
    const done = await sandbox().hosted.submitCard(lastSegment(url), { number: '4242424242424242', exp: '12/30', cvc: '123' });
    expect(done).toEqual({ kind: 'redirect', url: `http://divan.test/p/${luciaFile}/facturas?estado=pagado` });
    const items = await until(
      () => invoicesOf(luciaFile, lucia),
      (xs) => xs.find((i) => i.id === first.id)?.paymentStatus === 'paid',
    );
    const paid = items.find((i) => i.id === first.id)!;
    expect(paid).toMatchObject({ paymentStatus: 'paid', amountDueCents: 0, payable: false });
    expect(paid.paidAt).not.toBeNull();
    expectError(await t.post(`${P(luciaFile)}/invoices/${first.id}/pay`, {}, { token: lucia.accessToken }), 409, 'companion_invoice_paid');
  });

  it('an amount card payments do not take is not payable', async () => {
    expect((await invoicesOf(luciaFile, lucia)).find((i) => i.id === tooLow.id)).toMatchObject({ payable: false, amountDueCents: 40 });
    expectError(
      await t.post(`${P(luciaFile)}/invoices/${tooLow.id}/pay`, {}, { token: lucia.accessToken }),
      409,
      'companion_invoice_not_payable',
    );
  });

  it('saves a card through a setup checkout (the therapist sees it), switches «cobros automáticos» and removes it', async () => {
    const before = await cardOf(luciaFile, lucia);
    expect(before).toMatchObject({ canSave: true, card: null, autoCharge: true });
    expect(before.mandate).toContain('Tere');
    const { url } = await ok<{ url: string }>(t.post(`${P(luciaFile)}/card/setup`, {}, { token: lucia.accessToken }));
    const done = await sandbox().hosted.submitCard(lastSegment(url), { number: '4242 4242 4242 4242', exp: '12/30', cvc: '123' });
    expect(done).toEqual({ kind: 'redirect', url: `http://divan.test/p/${luciaFile}/facturas?estado=tarjeta` });
    const saved = await until(
      () => cardOf(luciaFile, lucia),
      (x) => x.card !== null,
    );
    expect(saved.card).toEqual({ brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 });
    const therapistSide = () =>
      ok<PatientPaymentMethod>(t.get(`${W(c.ws.id)}/patients/${luciaFile}/payment-method`, { token: c.tere.accessToken }));
    expect(await therapistSide()).toMatchObject({ card: { last4: '4242' }, autoCharge: true });

    expect(
      await ok<CompanionCard>(t.put(`${P(luciaFile)}/card/auto-charge`, { enabled: false }, { token: lucia.accessToken })),
    ).toMatchObject({ autoCharge: false, card: { last4: '4242' } });
    expect((await therapistSide()).autoCharge).toBe(false);
    expect(await ok<CompanionCard>(t.del(`${P(luciaFile)}/card`, { token: lucia.accessToken }))).toMatchObject({
      card: null,
      autoCharge: false,
    });
    expect((await therapistSide()).card).toBeNull();
  });
});

describe('one patient never reaches another’s invoices or card', () => {
  it('another file answers 404; another patient’s invoice through one’s own file is not found', async () => {
    for (const res of [
      await t.get(`${P(luciaFile)}/invoices`, { token: pablo.accessToken }),
      await t.get(`${P(luciaFile)}/invoices/${first.id}/pdf`, { token: pablo.accessToken }),
      await t.post(`${P(luciaFile)}/invoices/${first.id}/pay`, {}, { token: pablo.accessToken }),
      await t.get(`${P(luciaFile)}/card`, { token: pablo.accessToken }),
      await t.post(`${P(luciaFile)}/card/setup`, {}, { token: pablo.accessToken }),
      await t.put(`${P(luciaFile)}/card/auto-charge`, { enabled: true }, { token: pablo.accessToken }),
      await t.del(`${P(luciaFile)}/card`, { token: pablo.accessToken }),
    ])
      expectError(res, 404, 'patient_file_not_found');
    expectError(await t.get(`${P(pabloFile)}/invoices/${first.id}/pdf`, { token: pablo.accessToken }), 404, 'invoice_not_found');
    expectError(await t.post(`${P(pabloFile)}/invoices/${tooLow.id}/pay`, {}, { token: pablo.accessToken }), 404, 'invoice_not_found');
    expect(await invoicesOf(pabloFile, pablo)).toEqual([]);
    expect(await cardOf(pabloFile, pablo)).toMatchObject({ card: null, canSave: true });
    expectError(await t.get(`${P(luciaFile)}/invoices`, { token: c.tere.accessToken }), 401, 'invalid_access_token');
  });
});
