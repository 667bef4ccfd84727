import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shiftDay, todayIn, type FeeBalance, type Session } from '@divan/core';
import { createTestApp, type TestApp } from '../../test/test-app';
import { clinic, nextWeek, W, type Clinic } from '../../test/session-fixtures';

let t: TestApp;
let c: Clinic;
const today = todayIn('Europe/Madrid');
const q = `from=${today}&to=${shiftDay(today, 30)}`;

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'saldos');
  // Tere: 40 % commission, paid herself (6000 → fee 2400); Tomás: 25 € fixed, paid to the workspace (5555 → 2500).
  for (const [patientId, therapistId] of [
    [c.ana, c.tere.userId],
    [c.bruno, c.tomas.userId],
  ] as const) {
    const made = await t.post(`${W(c.ws.id)}/sessions`, { patientId, therapistId, day: nextWeek(), from: '16:00', to: '16:50' }, { token: c.owner.accessToken });
    const id = (made.json() as { session: Session }).session.id;
    expect((await t.post(`${W(c.ws.id)}/sessions/${id}/complete`, undefined, { token: c.owner.accessToken })).statusCode).toBe(200);
  }
  // A pending session counts for nothing.
  await t.post(`${W(c.ws.id)}/sessions`, { patientId: c.ana, therapistId: c.tere.userId, day: nextWeek(1), from: '16:00', to: '16:50' }, { token: c.owner.accessToken });
}, 60_000);
afterAll(() => t?.close());

describe('fee balance', () => {
  it('says what the workspace owes each therapist and what each owes it, from completed sessions', async () => {
    const res = await t.get(`${W(c.ws.id)}/fee-balance?${q}`, { token: c.owner.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    const rows = (res.json() as FeeBalance).rows;
    expect(rows.map((r) => [r.therapist.name, r.sessions, r.billedCents, r.feeCents, r.workspaceOwesCents, r.therapistOwesCents, r.balanceCents])).toEqual([
      ['Tere', 1, 6000, 2400, 0, 3600, -3600],
      ['Tomás', 1, 5555, 2500, 2500, 0, 2500],
    ]);
  });

  it('exports it for the accountant as a Spanish CSV', async () => {
    const res = await t.get(`${W(c.ws.id)}/fee-balance?${q}&format=csv`, { token: c.owner.accessToken });
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Terapeuta;Sesiones;Facturado;Honorarios del terapeuta;Cobrado por el espacio;Cobrado por el terapeuta;El espacio debe;El terapeuta debe;Saldo');
    expect(lines[2]).toBe('Tomás;1;55,55;25,00;55,55;0,00;25,00;0,00;25,00');
  });

  it('is for who reads the workspace’s invoices: a clinic therapist is refused', async () => {
    expect((await t.get(`${W(c.ws.id)}/fee-balance?${q}`, { token: c.tere.accessToken })).statusCode).toBe(403);
  });
});
