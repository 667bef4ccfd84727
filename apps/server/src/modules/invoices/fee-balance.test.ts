import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shiftDay, todayIn, type FeeBalance, type Session } from '@divan/core';
import { createTestApp, type TestApp } from '../../test/test-app';
import { clinic, nextWeek, W, type Clinic } from '../../test/session-fixtures';

let t: TestApp;
let c: Clinic;
const today = todayIn('Europe/Madrid');
const q = `from=${today}&to=${shiftDay(today, 30)}`;
const eur = (s: string) => s.replace(/ €/g, '\u00a0€');

async function completed(patientId: string, therapistId: string, n = 0) {
  const made = await t.post(
    `${W(c.ws.id)}/sessions`,
    { patientId, therapistId, day: nextWeek(n), from: '16:00', to: '16:50' },
    { token: c.owner.accessToken },
  );
  expect(made.statusCode, made.body).toBe(201);
  const session = (made.json() as { session: Session }).session;
  expect((await t.post(`${W(c.ws.id)}/sessions/${session.id}/complete`, undefined, { token: c.owner.accessToken })).statusCode).toBe(200);
  return session;
}

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'saldos');
  // The member: Olga keeps for the clinic 30 % of each session and the clinic collects; a 70 € session.
  expect(
    (
      await t.patch(
        `${W(c.ws.id)}/members/${c.ws.me.memberId}`,
        { commission: { type: 'percentage', value: 3000 }, paymentsReceiver: 'workspace' },
        { token: c.owner.accessToken },
      )
    ).statusCode,
  ).toBe(200);
  const paula = await c.patient('Paula', c.owner.userId, 7000);
  // Tere: the clinic keeps 40 %, she is paid herself (60 € → hers 36 €, the clinic's 24 €);
  // Tomás: the clinic keeps 25 € fixed and collects (55,55 € → his 30,55 €).
  for (const [patientId, therapistId] of [
    [paula, c.owner.userId],
    [c.ana, c.tere.userId],
    [c.bruno, c.tomas.userId],
  ] as const)
    await completed(patientId, therapistId);
  // A pending session counts for nothing.
  await t.post(
    `${W(c.ws.id)}/sessions`,
    { patientId: c.ana, therapistId: c.tere.userId, day: nextWeek(1), from: '16:00', to: '16:50' },
    { token: c.owner.accessToken },
  );
}, 60_000);
afterAll(() => t?.close());

describe('fee balance', () => {
  it('stores the therapist’s fee as the price less the clinic’s commission', async () => {
    const paula = await c.patient('Pia', c.owner.userId, 7000);
    const s = await completed(paula, c.owner.userId, 2);
    expect([s.price, s.fee, s.paymentsReceiver]).toEqual([7000, 4900, 'workspace']);
  });

  it('says who owes whom and why, per therapist, from completed sessions', async () => {
    const res = await t.get(`${W(c.ws.id)}/fee-balance?from=${today}&to=${shiftDay(today, 8)}`, { token: c.owner.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    const rows = (res.json() as FeeBalance).rows;
    expect(
      rows.map((r) => [
        r.therapist.name,
        r.sessions,
        r.billedCents,
        r.feeCents,
        r.commissionCents,
        r.workspaceOwesCents,
        r.therapistOwesCents,
        r.balanceCents,
      ]),
    ).toEqual([
      // 30 % of 70 € is the clinic's: it collected, so it owes Olga 49 €, not 21 €.
      ['Olga', 1, 7000, 4900, 2100, 4900, 0, 4900],
      ['Tere', 1, 6000, 3600, 2400, 0, 2400, -2400],
      ['Tomás', 1, 5555, 3055, 2500, 3055, 0, 3055],
    ]);
    expect(rows.map((r) => r.verdict)).toEqual([
      eur('El espacio debe 49,00 € a Olga'),
      eur('Tere debe 24,00 € al espacio'),
      eur('El espacio debe 30,55 € a Tomás'),
    ]);
    expect(rows[0]!.reasons).toEqual([
      eur('Cobra el espacio: cobró 70,00 € de 1 sesión y debe a Olga su parte, 49,00 € (se queda 21,00 € de comisión).'),
    ]);
    expect(rows[1]!.reasons).toEqual([
      eur('Cobra Tere: cobró 60,00 € de 1 sesión y debe al espacio su comisión, 24,00 € (su parte: 36,00 €).'),
    ]);
  });

  it('exports it for the accountant as a Spanish CSV, with who owes whom and why', async () => {
    const res = await t.get(`${W(c.ws.id)}/fee-balance?from=${today}&to=${shiftDay(today, 8)}&format=csv`, { token: c.owner.accessToken });
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Terapeuta;Sesiones;Facturado;Parte del terapeuta;Comisión del espacio;Cobrado por el espacio;Cobrado por el terapeuta;El espacio debe al terapeuta;El terapeuta debe al espacio;Saldo (positivo: paga el espacio);Quién debe a quién;Por qué',
    );
    expect(lines[2]).toBe(
      eur(
        'Tere;1;60,00;36,00;24,00;0,00;60,00;0,00;24,00;-24,00;Tere debe 24,00 € al espacio;Cobra Tere: cobró 60,00 € de 1 sesión y debe al espacio su comisión, 24,00 € (su parte: 36,00 €).',
      ),
    );
    expect(lines[3]).toBe(
      eur(
        'Tomás;1;55,55;30,55;25,00;55,55;0,00;30,55;0,00;30,55;El espacio debe 30,55 € a Tomás;Cobra el espacio: cobró 55,55 € de 1 sesión y debe a Tomás su parte, 30,55 € (se queda 25,00 € de comisión).',
      ),
    );
  });

  it('is for who reads the workspace’s invoices: a clinic therapist is refused', async () => {
    expect((await t.get(`${W(c.ws.id)}/fee-balance?${q}`, { token: c.tere.accessToken })).statusCode).toBe(403);
  });
});
