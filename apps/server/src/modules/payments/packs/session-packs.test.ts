import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shiftDay, todayIn, type Invoice, type Pack, type Session } from '@divan/core';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { until } from '../../../test/until';
import { clinic, nextWeek, W, type Clinic } from '../../../test/session-fixtures';

// Session packs (bonos): sold with an invoice, consumed by completed sessions (never invoiced again),
// not after they expire, and their unused part refunded with a rectifying invoice.
let t: TestApp;
let c: Clinic;
const P = (patientId: string) => `${W(c.ws.id)}/patients/${patientId}/packs`;
const ok = async <T>(res: Promise<{ statusCode: number; body: string; json(): unknown }>, status = 200) => {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return r.json() as T;
};
const code = async (res: Promise<{ statusCode: number; json(): unknown }>) => {
  const r = await res;
  return [r.statusCode, (r.json() as { code: string }).code];
};
async function complete(patientId: string, n: number): Promise<Session> {
  const { session } = await ok<{ session: Session }>(
    t.post(
      `${W(c.ws.id)}/sessions`,
      { patientId, therapistId: c.tere.userId, day: nextWeek(n), from: '10:00', to: '10:50' },
      { token: c.tere.accessToken },
    ),
    201,
  );
  return ok<Session>(t.post(`${W(c.ws.id)}/sessions/${session.id}/complete`, undefined, { token: c.tere.accessToken }));
}
const packsOf = async (patientId: string) => (await ok<{ items: Pack[] }>(t.get(P(patientId), { token: c.tere.accessToken }))).items;

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'bonos');
  await ok(
    t.put(
      '/api/v1/me/billing',
      { fullName: 'Tere Terapeuta', taxId: '12345678Z', line1: 'Calle Mayor 1', city: 'Madrid', zipCode: '28013', country: 'España' },
      { token: c.tere.accessToken },
    ),
  );
}, 60_000);
afterAll(() => t?.close());

describe('session packs', () => {
  let pack: Pack;
  it('sells a pack of 5 sessions: its invoice is issued at once, exempt therapy', async () => {
    pack = await ok<Pack>(t.post(P(c.ana), { sessionsTotal: 5, priceCents: 25000 }, { token: c.tere.accessToken }), 201);
    expect(pack).toMatchObject({
      name: 'Bono de 5 sesiones',
      sessionsTotal: 5,
      sessionsUsed: 0,
      sessionsLeft: 5,
      status: 'active',
      therapist: { id: c.tere.userId },
    });
    const inv = await ok<Invoice>(t.get(`${W(c.ws.id)}/invoices/${pack.invoice!.id}`, { token: c.tere.accessToken }));
    expect(inv).toMatchObject({ status: 'issued', totalCents: 25000, vatCents: 0, paymentStatus: 'pending', patient: { id: c.ana } });
    expect(inv.lines[0]).toMatchObject({ description: 'Bono de 5 sesiones', exemption: 'E1' });
  });

  it('refuses an expiry in the past and a pack of no sessions, in Spanish', async () => {
    expect(
      await code(
        t.post(
          P(c.ana),
          { sessionsTotal: 5, priceCents: 25000, expiresOn: shiftDay(todayIn('Europe/Madrid'), -1) },
          { token: c.tere.accessToken },
        ),
      ),
    ).toEqual([400, 'pack_expiry_past']);
    const zero = await t.post(P(c.ana), { sessionsTotal: 0, priceCents: 25000 }, { token: c.tere.accessToken });
    expect(zero.statusCode).toBe(400);
    expect(zero.body).toContain('al menos una sesión');
  });

  it('completed sessions consume it and are not invoiced again', async () => {
    const s1 = await complete(c.ana, 0);
    const s2 = await complete(c.ana, 1);
    expect([s1.invoiced, s2.invoiced]).toEqual([true, true]);
    expect((await packsOf(c.ana))[0]).toMatchObject({ sessionsUsed: 2, sessionsLeft: 3 });
    expect(
      await code(t.post(`${W(c.ws.id)}/invoices/from-sessions`, { patientId: c.ana, sessionIds: [s1.id] }, { token: c.tere.accessToken })),
    ).toEqual([409, 'invoice_session_invoiced']);
  });

  it('a consumed session canceled afterwards gives the pack its session back', async () => {
    const s3 = await complete(c.ana, 4);
    expect((await packsOf(c.ana))[0]).toMatchObject({ sessionsUsed: 3 });
    await ok(t.post(`${W(c.ws.id)}/sessions/${s3.id}/cancel`, { reason: 'patient' }, { token: c.tere.accessToken }));
    const back = await until(
      () => packsOf(c.ana),
      (p) => p[0]!.sessionsUsed === 2,
    );
    expect(back[0]).toMatchObject({ sessionsUsed: 2, sessionsLeft: 3 });
    expect((await ok<Session>(t.get(`${W(c.ws.id)}/sessions/${s3.id}`, { token: c.tere.accessToken }))).invoiced).toBe(false);
  });

  it('an expired pack pays nothing', async () => {
    const other = await c.patient('Elsa', c.tere.userId, 6000);
    await ok(
      t.post(P(other), { sessionsTotal: 3, priceCents: 15000, expiresOn: todayIn('Europe/Madrid') }, { token: c.tere.accessToken }),
      201,
    );
    const s = await complete(other, 2);
    expect(s.invoiced).toBe(false);
    expect((await packsOf(other))[0]).toMatchObject({ sessionsUsed: 0 });
  });

  it('refunds the 3 unused sessions: a rectifying invoice for their share, the pack closed', async () => {
    await ok(t.post(`${W(c.ws.id)}/invoices/${pack.invoice!.id}/payment`, { paymentType: 'cash' }, { token: c.tere.accessToken }));
    const refunded = await ok<Pack>(
      t.post(`${P(c.ana)}/${pack.id}/refund`, { reason: 'Fin del tratamiento' }, { token: c.tere.accessToken }),
    );
    expect(refunded).toMatchObject({ status: 'refunded', refundedSessions: 3, sessionsLeft: 0, sessionsUsed: 2 });
    const rect = await ok<Invoice>(t.get(`${W(c.ws.id)}/invoices/${refunded.refundInvoice!.id}`, { token: c.tere.accessToken }));
    expect(rect).toMatchObject({ kind: 'rectifying', totalCents: -15000, rectifies: { id: pack.invoice!.id, method: 'difference' } });
    expect(await code(t.post(`${P(c.ana)}/${pack.id}/refund`, { reason: 'Otra vez' }, { token: c.tere.accessToken }))).toEqual([
      409,
      'pack_nothing_to_refund',
    ]);
    // A refunded pack pays no more sessions.
    expect((await complete(c.ana, 3)).invoiced).toBe(false);
  });

  it("is the patient's billing: another therapist does not even see the patient's packs", async () => {
    expect(await code(t.post(P(c.ana), { sessionsTotal: 5, priceCents: 25000 }, { token: c.tomas.accessToken }))).toEqual([
      404,
      'patient_not_found',
    ]);
    expect(await code(t.get(P(c.ana), { token: c.tomas.accessToken }))).toEqual([404, 'patient_not_found']);
  });
});
