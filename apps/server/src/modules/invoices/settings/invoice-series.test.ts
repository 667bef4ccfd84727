import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextInvoiceText, todayIn, type Invoice, type InvoiceSeriesCounters, type Session } from '@divan/core';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { clinic, nextWeek, W, type Clinic } from '../../../test/session-fixtures';
import type { Therapist } from '../../../test/workspace-fixtures';

let t: TestApp;
let c: Clinic;
const year = Number(todayIn('Europe/Madrid').slice(0, 4));

async function invoiced(who: Therapist, patientId: string, therapistId: string): Promise<Invoice> {
  const made = await t.post(
    `${W(c.ws.id)}/sessions`,
    { patientId, therapistId, day: nextWeek(), from: '10:00', to: '10:50' },
    { token: who.accessToken },
  );
  const id = (made.json() as { session: Session }).session.id;
  expect((await t.post(`${W(c.ws.id)}/sessions/${id}/complete`, undefined, { token: who.accessToken })).statusCode).toBe(200);
  const draft = await t.post(`${W(c.ws.id)}/invoices/from-sessions`, { patientId, sessionIds: [id] }, { token: who.accessToken });
  expect(draft.statusCode, draft.body).toBe(201);
  const issued = await t.post(`${W(c.ws.id)}/invoices/${(draft.json() as Invoice).id}/issue`, undefined, { token: who.accessToken });
  expect(issued.statusCode, issued.body).toBe(200);
  return issued.json() as Invoice;
}

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'series');
  expect(
    (await t.put('/api/v1/me/billing', { fullName: 'Teresa Terapeuta', taxId: '12345678Z' }, { token: c.tere.accessToken })).statusCode,
  ).toBe(200);
  expect(
    (await t.put(`${W(c.ws.id)}/billing-info`, { fullName: 'Clínica Series SL', taxId: 'B12345674' }, { token: c.owner.accessToken }))
      .statusCode,
  ).toBe(200);
}, 60_000);
afterAll(() => t?.close());

describe('the next invoice number the billing settings say', () => {
  it('after 2026-0001 is issued, the therapist’s series says 2026-0002, and the workspace’s its own', async () => {
    const mine = async () => (await t.get('/api/v1/me/invoice-series', { token: c.tere.accessToken })).json() as InvoiceSeriesCounters;
    const clinics = async () =>
      (await t.get(`${W(c.ws.id)}/invoice-series`, { token: c.owner.accessToken })).json() as InvoiceSeriesCounters;
    expect(nextInvoiceText('', await mine(), 'mine')).toBe(`Tu próxima factura será la ${year}-0001 (rectificativa: R${year}-0001).`);

    // Tere is paid herself; Tomás's sessions are the clinic's to invoice: two 0001 of two issuers.
    const hers = await invoiced(c.tere, c.ana, c.tere.userId);
    const theirs = await invoiced(c.owner, c.bruno, c.tomas.userId);
    expect([hers.number, hers.seller?.fullName, theirs.number, theirs.seller?.fullName]).toEqual([
      `${year}-0001`,
      'Teresa Terapeuta',
      `${year}-0001`,
      'Clínica Series SL',
    ]);

    expect(await mine()).toEqual({ year, counters: [{ kind: 'ordinary', prefix: '', last: 1 }] });
    expect(nextInvoiceText('', await mine(), 'mine')).toBe(`Tu próxima factura será la ${year}-0002 (rectificativa: R${year}-0001).`);
    expect(nextInvoiceText('', await clinics(), 'workspace')).toBe(
      `La próxima factura del espacio será la ${year}-0002 (rectificativa: R${year}-0001).`,
    );
    // The list tells them apart by their issuer.
    const list = (await t.get(`${W(c.ws.id)}/invoices?status=issued`, { token: c.owner.accessToken })).json() as { items: Invoice[] };
    expect(list.items.map((i) => [i.number, i.sellerType, i.seller?.fullName]).sort()).toEqual([
      [`${year}-0001`, 'therapist', 'Teresa Terapeuta'],
      [`${year}-0001`, 'workspace', 'Clínica Series SL'],
    ]);
  });

  it('the workspace’s counters are for who reads its billing data', async () => {
    expect((await t.get(`${W(c.ws.id)}/invoice-series`, { token: c.tere.accessToken })).statusCode).toBe(403);
  });
});
