import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shiftDay, toInstant } from '@divan/core';
import { createTestApp, type TestApp } from './test/test-app';
import { clinic, nextWeek, W, type Clinic } from './test/session-fixtures';
import { patientsRepository, searchTextOf } from './modules/patients/patients.repository';
import { bookingKit } from './modules/booking/booking-flow.testkit';
import type { PublicSlots } from '@divan/core';
import { json } from './test/test-app';

// Issue 26: a hot read sends a fixed, small number of statements whatever the data size — no query per
// row (N+1). Each read is counted with its caches off, after one warm-up request (the member's access,
// resolved once and kept, is not what is counted), at two data sizes.
let t: TestApp;
let c: Clinic;
let log: string[] | null = null;

beforeAll(async () => {
  t = await createTestApp({ patientListCache: 0, sessionListCache: 0 }, { onStatement: (sql) => log?.push(sql) });
  c = await clinic(t, 'statements');
}, 60_000);
afterAll(() => t?.close());

/** A query per row shows as the same statement sent many times. */
const repeated = (sent: string[]) => sent.filter((q, i) => sent.indexOf(q) !== i);
const letters = (i: number) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[i % 26]! + 'abcdefghij'[Math.floor(i / 26)]!;

async function statementsOf(path: string, token = c.owner.accessToken) {
  expect((await t.get(path, { token })).statusCode).toBe(200);
  log = [];
  const res = await t.get(path, { token });
  // The outbox's mail relay runs in the background: its statements are not the read's.
  const sent = log.filter((q) => !q.includes('"mail_outbox"'));
  log = null;
  expect(res.statusCode, res.body).toBe(200);
  return sent;
}

async function addPatients(n: number, from: number) {
  const rows = Array.from({ length: n }, (_, i) => {
    const p = {
      workspaceId: c.ws.id,
      assignedTherapistId: i % 2 ? c.tere.userId : c.tomas.userId,
      firstName: `Paciente${letters(from + i)}`,
      lastName: 'García',
      email: `p${from + i}@correo.test`,
      phone: null,
    };
    return { ...p, searchText: searchTextOf(p) };
  });
  await patientsRepository(t.app.services.database.db).insertMany(rows);
}

describe('statements per request', () => {
  it('the patient list, searched or not: the same few statements for 2 patients or 60', async () => {
    const paths = [`${W(c.ws.id)}/patients?pageSize=50`, `${W(c.ws.id)}/patients?q=garcia&pageSize=50`];
    const small = [];
    for (const p of paths) small.push(await statementsOf(p));
    await addPatients(58, 0);
    for (const [i, p] of paths.entries()) {
      const sent = await statementsOf(p);
      // The therapists' names may come from the users' cache or one statement: never one per row.
      expect(sent.length, sent.join('\n')).toBeLessThanOrEqual(Math.max(small[i]!.length, 2));
      expect(repeated(sent)).toEqual([]);
    }
    // Also for a therapist who sees only the patients assigned to them.
    const tere = await statementsOf(paths[1]!, c.tere.accessToken);
    expect(tere.length).toBeLessThanOrEqual(2);
    expect(repeated(tere)).toEqual([]);
  });

  it('the calendar week: the same statements for 2 sessions or 30, of 30 patients and two therapists', async () => {
    const day = nextWeek();
    const week = `${W(c.ws.id)}/sessions?from=${toInstant(day, '00:00', 'Europe/Madrid').toISOString()}&to=${toInstant(shiftDay(day, 7), '00:00', 'Europe/Madrid').toISOString()}`;
    const book = async (i: number, patientId: string, therapistId: string) => {
      const at = `${String(8 + (i % 12)).padStart(2, '0')}:00`;
      const res = await t.post(
        `${W(c.ws.id)}/sessions`,
        { patientId, therapistId, day: shiftDay(day, Math.floor(i / 12)), from: at, to: at.replace(':00', ':45') },
        { token: c.owner.accessToken },
      );
      expect(res.statusCode, res.body).toBe(201);
    };
    // The full sessions and the grid's columns (…/sessions/grid), which the web calendar reads.
    const grid = week.replace('/sessions?', '/sessions/grid?');
    await book(0, c.ana, c.tere.userId);
    await book(1, c.bruno, c.tomas.userId);
    const small = [await statementsOf(week), await statementsOf(grid)];
    for (let i = 2; i < 30; i++) {
      const pid = await c.patient(`Sesión${letters(i)}`, i % 2 ? c.tere.userId : c.tomas.userId);
      await book(i, pid, i % 2 ? c.tere.userId : c.tomas.userId);
    }
    for (const [i, path] of [week, grid].entries()) {
      const big = await statementsOf(path);
      expect(big.length, big.join('\n')).toBeLessThanOrEqual(Math.max(small[i]!.length, 2));
      expect(repeated(big)).toEqual([]);
    }
  }, 60_000);

  it('the invoice list: the same statements for 2 invoices or 20, of 20 patients', async () => {
    const draft = async (patientId: string) => {
      const res = await t.post(`${W(c.ws.id)}/invoices`, { patientId, therapistId: c.tere.userId }, { token: c.owner.accessToken });
      expect(res.statusCode, res.body).toBe(201);
    };
    await draft(c.ana);
    await draft(c.ana);
    const list = `${W(c.ws.id)}/invoices`;
    const small = await statementsOf(list);
    for (let i = 0; i < 18; i++) await draft(await c.patient(`Factura${letters(i)}`, c.tere.userId));
    const big = await statementsOf(list);
    expect(big.length, big.join('\n')).toBeLessThanOrEqual(Math.max(small.length, 2));
    expect(repeated(big)).toEqual([]);
  }, 60_000);

  it('the public month of slots: the same statements for 2 booked sessions or 20', async () => {
    const k = await bookingKit(t, 'statements');
    const every = { from: '09:00', to: '19:00' };
    const service = await k.createService({
      schedule: { 1: [every], 2: [every], 3: [every], 4: [every], 5: [every], 6: [every], 7: [every] },
    });
    const next = new Date();
    next.setUTCDate(1);
    next.setUTCMonth(next.getUTCMonth() + 1);
    const month = `/api/v1/public/reservations/${k.ws.id}/${k.owner.userId}/${service.id}/slots?month=${next.toISOString().slice(0, 7)}`;
    const slots = async () => json<PublicSlots>(await t.get(month)).days.flatMap((d) => d.slots.map((x) => x.startsAt));
    // The month is cached until a hold or a booking changes it: what is counted is the read right after one.
    const firstRead = async (n: number) => {
      const held = await k.hold(service, (await slots())[0]!, `mira${n}@correo.test`);
      expect(held.statusCode, held.body).toBe(201);
      // Its code mail relayed first: the outbox's relay is background work, not the read's.
      await k.codeFor(`mira${n}@correo.test`);
      log = [];
      const res = await t.get(month);
      const sent = log.filter((q) => !q.includes('"mail_outbox"'));
      log = null;
      expect(res.statusCode, res.body).toBe(200);
      return sent;
    };
    const free = await slots();
    for (let i = 0; i < 2; i++) await k.book(service, free[i * 3]!, `reserva${i}@correo.test`);
    const small = await firstRead(1);
    expect(small.length).toBeGreaterThan(0);
    for (let i = 2; i < 20; i++) await k.book(service, free[i * 3]!, `reserva${i}@correo.test`);
    const big = await firstRead(2);
    expect(big.length, big.join('\n')).toBeLessThanOrEqual(small.length);
    expect(repeated(big)).toEqual([]);
  }, 60_000);
});
