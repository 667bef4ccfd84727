import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { AnalyticsResponse, AnalyticsRowsResponse, DashboardStats, Invoice, Session } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { clinic, W, type Clinic } from '../../test/session-fixtures';
import { createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';

/**
 * The golden dataset (issue 28), written by hand: September and October 2026 in a clinic of two
 * therapists, Tere (40 % commission) and Tomás (25 € fixed), and four patients of theirs. «Today» is
 * Tuesday 20/10/2026. Every expected number below was counted by hand from this table, not by the code.
 *
 *  S1  Alicia (Tere, 60 €) Mon 07/09 10:00–10:50  completed  invoiced I1 (issued 07/09, paid 20/09 by card)
 *  S2  Alicia              Mon 14/09 10:00–10:50  completed  invoiced I0 (issued 14/09, unpaid)
 *  S3  Benito (Tomás, 55,55 €) Tue 08/09 17:00–18:00 online  canceled: no-show
 *  S4  Benito              Tue 15/09 17:00–18:00 online  completed  not invoiced
 *  S5  Diego (Tomás, 50 €) Wed 09/09 12:00–12:50  completed  not invoiced
 *  S6  Alicia              Mon 05/10 10:00–10:50  completed  invoiced I3 (issued 05/10, paid 06/10 cash)
 *  S7  Alicia              Mon 12/10 10:00–10:50  canceled by the patient
 *  S8  Alicia              Mon 26/10 10:00–10:50  pending (after today)
 *  S9  Carla (Tere, 60 €)  Thu 01/10 16:00–16:50  completed  invoiced I2 (issued 01/10, unpaid)
 *  S10 Carla               Thu 08/10 16:00–16:50  completed  not invoiced
 *  S11 Benito              Tue 06/10 17:00–18:00 online  completed  not invoiced
 *  S12 Diego               Wed 07/10 12:00–12:50  completed  not invoiced
 *  S13 Benito              Tue 13/10 17:00–18:00 online  canceled: late
 *
 * Patients: Alicia (anxiety, woman, born 01/05/1990, from the website, individual, added 02/09, active);
 * Benito (depression, man, 15/01/2000, a friend, individual, added 10/09, paused); Carla (anxiety, woman,
 * no birthdate, added 05/10; treatment 01/10–15/10, abandoned); Diego (mourning, man, 01/03/1950, added
 * 20/08; treatment 01/08–10/10, completed). The fixture's Ana and Bruno (active, added in June) have no sessions.
 *
 * Booking schedules (utilisation): Tere offers «Primera consulta» Mon 09:00–14:00 and Thu 16:00–18:00,
 * «Seguimiento» Mon 13:00–15:00 (Mondays 09:00–15:00 together, 360 min) and a paused «Grupo» on Fridays
 * (not offered); she blocked Mon 19/10 all day and Thu 22/10 16:00–17:00. Tomás publishes nothing.
 * October: 4 Mondays × 360 − 360 + 5 Thursdays × 120 − 60 = 1,620 minutes offered by Tere.
 */
let t: TestApp;
let c: Clinic;
let now = new Date('2026-08-20T08:00:00Z');
const at = (day: string) => (now = new Date(`${day}T10:00:00Z`));
const ids: Record<string, string> = {};
let A: string;
const OCT = 'from=2026-10-01&to=2026-10-31';

const ok = async <T>(res: Promise<{ statusCode: number; body: string; json(): unknown }>, status = 200) => {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return r.json() as T;
};
const get = <T>(who: Therapist, path: string) => ok<T>(t.get(`${A}/${path}`, { token: who.accessToken }));
const tab = async <T extends AnalyticsResponse['tab']>(who: Therapist, name: T, q = OCT) =>
  (await get<AnalyticsResponse>(who, `${name}?${q}`)).stats as Extract<AnalyticsResponse, { tab: T }>['stats'];

beforeAll(async () => {
  // No cached answers: every read here counts from the database (analytics-cache.test.ts tests the cache).
  t = await createTestApp({ analyticsCache: 0 }, { clock: () => now });
  c = await clinic(t, 'estadisticas');
  A = `${W(c.ws.id)}/analytics`;
  const owner = c.owner.accessToken;
  await ok(
    t.put(
      '/api/v1/me/billing',
      { fullName: 'Teresa Terapeuta', taxId: '12345678-z', line1: 'Calle Mayor 1', city: 'Madrid', zipCode: '28013', country: 'España' },
      { token: c.tere.accessToken },
    ),
  );
  const patient = async (key: string, body: Record<string, unknown>, added: string) => {
    ids[key] = (await ok<{ id: string }>(t.post(`${W(c.ws.id)}/patients`, { lastName: 'Golden', ...body }, { token: owner }), 201)).id;
    await t.rows(sql`update patients set created_at = ${`${added}T09:00:00Z`} where id = ${ids[key]}`);
  };
  await t.rows(sql`update patients set created_at = '2026-06-01T09:00:00Z' where id in (${c.ana}, ${c.bruno})`);
  const tr = (sessionPrice: number, more: Record<string, unknown>) => ({ sessionPrice, ...more });
  await patient(
    'alicia',
    {
      firstName: 'Alicia',
      assignedTherapistId: c.tere.userId,
      gender: 'female',
      birthdate: '1990-05-01',
      treatment: tr(6000, { motive: 'anxiety', referralSource: 'website', sessionType: 'individual' }),
    },
    '2026-09-02',
  );
  await patient(
    'benito',
    {
      firstName: 'Benito',
      assignedTherapistId: c.tomas.userId,
      gender: 'male',
      birthdate: '2000-01-15',
      treatment: tr(5555, { motive: 'depression', referralSource: 'friend', sessionType: 'individual', sessionModality: 'online' }),
    },
    '2026-09-10',
  );
  await patient(
    'carla',
    { firstName: 'Carla', assignedTherapistId: c.tere.userId, gender: 'female', treatment: tr(6000, { motive: 'anxiety' }) },
    '2026-10-05',
  );
  await patient(
    'diego',
    {
      firstName: 'Diego',
      assignedTherapistId: c.tomas.userId,
      gender: 'male',
      birthdate: '1950-03-01',
      treatment: tr(5000, { motive: 'mourning' }),
    },
    '2026-08-20',
  );

  const session = async (key: string, patient: string, who: Therapist, day: string, from: string, to: string, end?: string) => {
    const { session: s } = await ok<{ session: Session }>(
      t.post(
        `${W(c.ws.id)}/sessions`,
        { patientId: ids[patient], therapistId: who.userId, day, from, to, modality: patient === 'benito' ? 'online' : 'presential' },
        { token: owner },
      ),
      201,
    );
    ids[key] = s.id;
    if (end === 'completed') await ok(t.post(`${W(c.ws.id)}/sessions/${s.id}/complete`, undefined, { token: owner }));
    else if (end) await ok(t.post(`${W(c.ws.id)}/sessions/${s.id}/cancel`, { reason: end }, { token: owner }));
  };
  const { tere, tomas } = c;
  at('2026-08-20');
  await session('s1', 'alicia', tere, '2026-09-07', '10:00', '10:50', 'completed');
  await session('s2', 'alicia', tere, '2026-09-14', '10:00', '10:50', 'completed');
  await session('s3', 'benito', tomas, '2026-09-08', '17:00', '18:00', 'no_show');
  await session('s4', 'benito', tomas, '2026-09-15', '17:00', '18:00', 'completed');
  await session('s5', 'diego', tomas, '2026-09-09', '12:00', '12:50', 'completed');
  await session('s6', 'alicia', tere, '2026-10-05', '10:00', '10:50', 'completed');
  await session('s7', 'alicia', tere, '2026-10-12', '10:00', '10:50', 'patient');
  await session('s8', 'alicia', tere, '2026-10-26', '10:00', '10:50');
  await session('s9', 'carla', tere, '2026-10-01', '16:00', '16:50', 'completed');
  await session('s10', 'carla', tere, '2026-10-08', '16:00', '16:50', 'completed');
  await session('s11', 'benito', tomas, '2026-10-06', '17:00', '18:00', 'completed');
  await session('s12', 'diego', tomas, '2026-10-07', '12:00', '12:50', 'completed');
  await session('s13', 'benito', tomas, '2026-10-13', '17:00', '18:00', 'late');

  const I = `${W(c.ws.id)}/invoices`;
  const invoice = async (patient: string, session: string, day: string, paid?: { on: string; type: string }) => {
    at(day);
    const draft = await ok<Invoice>(
      t.post(`${I}/from-sessions`, { patientId: ids[patient], sessionIds: [ids[session]] }, { token: tere.accessToken }),
      201,
    );
    const issued = await ok<Invoice>(t.post(`${I}/${draft.id}/issue`, undefined, { token: tere.accessToken }));
    expect(issued.issueDate).toBe(day);
    if (paid) await ok(t.post(`${I}/${draft.id}/payment`, { paymentType: paid.type, paidOn: paid.on }, { token: tere.accessToken }));
    return issued.id;
  };
  const booking = (path: string, body: Record<string, unknown>) =>
    ok(t.post(`${W(c.ws.id)}/${path}`, body, { token: c.tere.accessToken }), 201);
  const service = { timeZone: 'Europe/Madrid', priceCents: 6000, modality: 'presential', durationMinutes: 50 };
  await booking('booking-services', {
    ...service,
    title: 'Primera consulta',
    schedule: { 1: [{ from: '09:00', to: '14:00' }], 4: [{ from: '16:00', to: '18:00' }] },
  });
  await booking('booking-services', { ...service, title: 'Seguimiento', schedule: { 1: [{ from: '13:00', to: '15:00' }] } });
  await booking('booking-services', { ...service, title: 'Grupo', status: 'paused', schedule: { 5: [{ from: '09:00', to: '14:00' }] } });
  await booking('availability-overrides', {
    dates: [
      { day: '2026-10-19', allDay: true },
      { day: '2026-10-22', allDay: false, from: '16:00', to: '17:00' },
    ],
  });

  ids.i1 = await invoice('alicia', 's1', '2026-09-07', { on: '2026-09-20', type: 'card' });
  ids.i0 = await invoice('alicia', 's2', '2026-09-14');
  ids.i2 = await invoice('carla', 's9', '2026-10-01');
  ids.i3 = await invoice('alicia', 's6', '2026-10-05', { on: '2026-10-06', type: 'cash' });

  const treatment = (patient: string, body: Record<string, unknown>) =>
    ok(t.put(`${W(c.ws.id)}/patients/${ids[patient]}/treatment`, body, { token: owner }));
  await treatment('benito', { status: 'paused' });
  await treatment('carla', { status: 'inactive', startDate: '2026-10-01', endDate: '2026-10-15', endingReason: 'abandoned' });
  await treatment('diego', { status: 'inactive', startDate: '2026-08-01', endDate: '2026-10-10', endingReason: 'completed' });
  at('2026-10-20');
}, 120_000);
afterAll(() => t?.close());

describe('statistics on the golden dataset (October 2026 against September)', () => {
  it('Sesiones: every card, the heat map and per therapist', async () => {
    const s = await tab(c.owner, 'sessions');
    expect(s.previousPeriod).toEqual({ from: '2026-09-01', to: '2026-09-30' });
    expect(s.totals).toEqual({
      scheduled: 8,
      pending: 1,
      completed: 5,
      canceled: 2,
      canceledByReason: { patient: 1, therapist: 0, late: 1, no_show: 0, none: 0 },
      online: 1,
      presential: 5,
      bookedMinutes: 310,
    });
    expect(s.previous).toEqual({
      scheduled: 5,
      pending: 0,
      completed: 4,
      canceled: 1,
      canceledByReason: { patient: 0, therapist: 0, late: 0, no_show: 1, none: 0 },
      online: 1,
      presential: 3,
      bookedMinutes: 210,
    });
    expect(s.heatmap).toEqual([
      { weekday: 1, hour: 10, count: 2 },
      { weekday: 2, hour: 17, count: 1 },
      { weekday: 3, hour: 12, count: 1 },
      { weekday: 4, hour: 16, count: 2 },
    ]);
    expect(s.byDay).toHaveLength(31);
    expect(s.byDay.find((d) => d.day === '2026-10-13')).toEqual({ day: '2026-10-13', completed: 0, pending: 0, canceled: 1 });
    expect(
      s.byTherapist.map(({ name, scheduled, completed, canceled, noShows, bookedMinutes }) => [
        name,
        scheduled,
        completed,
        canceled,
        noShows,
        bookedMinutes,
      ]),
    ).toEqual([
      ['Tere', 5, 3, 1, 0, 200],
      ['Tomás', 3, 2, 1, 0, 110],
    ]);
    // Utilisation counts only the therapists whose schedules offer time: Tere's 200 booked of 1,620 offered.
    expect(s.byTherapist.map((r) => [r.name, r.offeredMinutes])).toEqual([
      ['Tere', 1620],
      ['Tomás', null],
    ]);
    expect(s.utilisation).toEqual({ bookedMinutes: 200, offeredMinutes: 1620 });
    // Tomás alone offers nothing: no utilisation, not 0 %.
    const tomas = await tab(c.owner, 'sessions', `${OCT}&therapistId=${c.tomas.userId}`);
    expect(tomas.utilisation).toBeNull();
    // The last week of October: Mon 26 (360) + Thu 29 (120) offered; her S8 on the 26th, pending, books 50.
    const week = await tab(c.owner, 'sessions', 'from=2026-10-26&to=2026-11-01');
    expect(week.utilisation).toEqual({ bookedMinutes: 50, offeredMinutes: 480 });
    // September, before any blocked day: 4 Mondays (7, 14, 21, 28) × 360 + 4 Thursdays (3, 10, 17, 24) × 120.
    const sept = await tab(c.owner, 'sessions', 'from=2026-09-01&to=2026-09-30');
    expect(sept.utilisation).toEqual({ bookedMinutes: 100, offeredMinutes: 1920 });
  });

  it('Facturación: issued, collected, left on the table, owed by age, per therapist and the projection', async () => {
    const b = await tab(c.owner, 'billing');
    expect(b.totals).toEqual({
      issuedCents: 12000,
      issuedCount: 2,
      collectedCents: 6000,
      collectedCount: 1,
      uninvoicedCents: 16555,
      uninvoicedCount: 3,
    });
    expect(b.previous).toEqual({
      issuedCents: 12000,
      issuedCount: 2,
      collectedCents: 6000,
      collectedCount: 1,
      uninvoicedCents: 10555,
      uninvoicedCount: 2,
    });
    expect(b.outstanding).toEqual({
      cents: 12000,
      count: 2,
      ageing: [
        { bucket: '0_30', cents: 6000, count: 1 },
        { bucket: '31_60', cents: 6000, count: 1 },
        { bucket: '61_90', cents: 0, count: 0 },
        { bucket: '90_plus', cents: 0, count: 0 },
      ],
    });
    expect(b.byMonth).toEqual([{ month: '2026-10', issuedCents: 12000, collectedCents: 6000 }]);
    expect(b.byPaymentType).toEqual([{ key: 'cash', cents: 6000, count: 1 }]);
    expect(b.byTherapist.map(({ therapistId: _, ...x }) => x)).toEqual([
      { name: 'Tere', issuedCents: 12000, collectedCents: 6000, completedSessions: 3, feeCents: 10800, commissionCents: 7200 },
      { name: 'Tomás', issuedCents: 0, collectedCents: 0, completedSessions: 2, feeCents: 5555, commissionCents: 5000 },
    ]);
    expect(b.projection).toEqual({ collectedCents: 6000, upcomingCents: 6000, upcomingCount: 1 });
    const two = await tab(c.owner, 'billing', 'from=2026-09-01&to=2026-10-31');
    expect(two.byMonth).toEqual([
      { month: '2026-09', issuedCents: 12000, collectedCents: 6000 },
      { month: '2026-10', issuedCents: 12000, collectedCents: 6000 },
    ]);
    expect(two.projection).toBeNull();
  });

  it('Pacientes: status now, new, discharged and who the caseload is', async () => {
    const p = await tab(c.owner, 'patients');
    expect(p.totals).toEqual({ added: 1, discharged: 2, seen: 4 });
    expect(p.previous).toEqual({ added: 2, discharged: 0, seen: 3 });
    expect(p.statusNow).toEqual({ active: 3, paused: 1, inactive: 2 });
    expect(p.dischargedByReason).toEqual([
      { key: 'abandoned', count: 1 },
      { key: 'completed', count: 1 },
    ]);
    expect(p.byMotive).toEqual([
      { key: 'anxiety', count: 2 },
      { key: 'depression', count: 1 },
      { key: 'mourning', count: 1 },
    ]);
    expect(p.byReferralSource).toEqual([
      { key: 'none', count: 2 },
      { key: 'friend', count: 1 },
      { key: 'website', count: 1 },
    ]);
    expect(p.bySessionType).toEqual([
      { key: 'individual', count: 2 },
      { key: 'none', count: 2 },
    ]);
    expect(Object.fromEntries(p.byAgeBand.filter((b) => b.count).map((b) => [b.key, b.count]))).toEqual({
      '26_35': 1,
      '36_45': 1,
      '66_plus': 1,
      unknown: 1,
    });
    expect(p.byGender).toEqual([
      { key: 'female', count: 2 },
      { key: 'male', count: 2 },
    ]);
  });

  it('Tratamientos: length, drop-out (early too) and the rebook rate', async () => {
    const r = await tab(c.owner, 'treatments');
    expect(r.totals).toEqual({
      ended: 2,
      abandoned: 1,
      earlyDropouts: 1,
      medianDays: 42,
      medianSessions: 2,
      completedSessions: 5,
      rebooked: 2,
    });
    expect(r.previous).toEqual({
      ended: 0,
      abandoned: 0,
      earlyDropouts: 0,
      medianDays: null,
      medianSessions: null,
      completedSessions: 4,
      rebooked: 4,
    });
    expect(r.byMotive).toEqual([
      { key: 'anxiety', ended: 1, abandoned: 1 },
      { key: 'mourning', ended: 1, abandoned: 0 },
    ]);
  });

  it('opens every card to the rows it counts, and they add up to it', async () => {
    const rows = (name: string, card: string) => get<AnalyticsRowsResponse>(c.owner, `${name}/rows?${OCT}&card=${card}`);
    const completed = await rows('sessions', 'completed');
    expect(completed.total).toBe(5);
    expect(completed.items.map((x) => x.id)).toEqual([ids.s9, ids.s6, ids.s11, ids.s12, ids.s10]);
    const uninvoiced = await rows('billing', 'uninvoiced');
    expect([uninvoiced.total, uninvoiced.sumCents]).toEqual([3, 16555]);
    expect(uninvoiced.items.reduce((n, x) => n + (x.kind === 'session' ? x.priceCents : 0), 0)).toBe(16555);
    const issued = await rows('billing', 'issued');
    expect([issued.total, issued.sumCents, issued.items.map((x) => x.id).sort()]).toEqual([2, 12000, [ids.i2, ids.i3].sort()]);
    const owed = await rows('billing', 'outstanding');
    expect([owed.total, owed.sumCents]).toEqual([2, 12000]);
    const early = await rows('treatments', 'early_dropouts');
    expect(early.items).toEqual([
      { kind: 'patient', id: ids.carla, name: 'Carla Golden', day: '2026-10-15', detail: 'Abandono · 2 sesiones' },
    ]);
    const seen = await rows('patients', 'seen');
    expect(seen.total).toBe(4);
    const bad = await t.get(`${A}/sessions/rows?${OCT}&card=issued`, { token: c.owner.accessToken });
    expect([bad.statusCode, json<{ code: string }>(bad).code]).toEqual([400, 'invalid_argument']);
  });

  it('the dashboard: this month against the same days of the last, the 30 days, what is owed', async () => {
    const d = await ok<DashboardStats>(t.get(`${A}/dashboard`, { token: c.owner.accessToken }));
    expect(d.today).toBe('2026-10-20');
    expect(d.revenue).toMatchObject({
      monthIssuedCents: 12000,
      previousMonthIssuedCents: 12000,
      monthCollectedCents: 6000,
      dueCents: 12000,
      dueCount: 2,
    });
    expect(d.revenue!.last30Days).toHaveLength(30);
    expect(d.revenue!.last30Days.filter((x) => x.cents)).toEqual([
      { day: '2026-10-01', cents: 6000 },
      { day: '2026-10-05', cents: 6000 },
    ]);
    expect(d.sessions).toEqual({ completed: 5, pending: 1, canceled: 2 });
    expect(d.advanced).toBe(true);
    expect(d.scope.workspace).toBe(true);
    expect(d.scope.therapists.map((x) => x.name)).toEqual(['Olga', 'Rosa', 'Tere', 'Tomás']);
  });
});

describe('the summaries of months (sessions and invoices)', () => {
  it('every tab answers the same through the summary as from the rows, whole months and edges alike', async () => {
    const periods = [OCT, 'from=2026-09-01&to=2026-10-31', 'from=2026-08-15&to=2026-10-20', 'from=2026-09-10&to=2026-10-09'];
    const read = async () => {
      const out: unknown[] = [await get(c.owner, 'dashboard')];
      for (const q of periods)
        for (const name of ['sessions', 'billing', 'patients', 'treatments'] as const) {
          out.push(await tab(c.owner, name, q));
          out.push(await tab(c.tere, name, q));
        }
      return out;
    };
    // Whatever a debounced refresh did meanwhile, the months go back to stale: read from the rows.
    await t.rows(sql`insert into session_stats_dirty (workspace_id, month) values (${c.ws.id}, '2026-09-01'), (${c.ws.id}, '2026-10-01')`);
    await t.rows(sql`insert into invoice_stats_dirty (workspace_id, month) values (${c.ws.id}, '2026-09-01'), (${c.ws.id}, '2026-10-01')`);
    const fromRows = await read();
    // The server's own debounced job may have summed the months meanwhile; either way none is stale after.
    await t.app.services.sessionMonthStats.refresh(c.ws.id);
    await t.app.services.invoiceMonthStats.refresh(c.ws.id);
    expect(await t.rows(sql`select 1 from session_stats_dirty where workspace_id = ${c.ws.id}`)).toEqual([]);
    expect(await t.rows(sql`select 1 from invoice_stats_dirty where workspace_id = ${c.ws.id}`)).toEqual([]);
    const invoiced = await t.rows<{ month: string; issued: number; collected: number; types: string }>(
      sql`select to_char(month, 'YYYY-MM') as month, sum(issued_cents)::int as issued, sum(collected_cents)::int as collected,
            string_agg(distinct payment_type, ',' order by payment_type) as types
          from invoice_month_stats where workspace_id = ${c.ws.id} group by 1 order by 1`,
    );
    // I0 and I1 issued in September (I1 paid the 20th by card), I2 and I3 in October (I3 paid the 6th, cash).
    expect(invoiced).toEqual([
      { month: '2026-09', issued: 12000, collected: 6000, types: 'card,other' },
      { month: '2026-10', issued: 12000, collected: 6000, types: 'cash,other' },
    ]);
    const months = await t.rows<{ month: string; scheduled: number }>(
      sql`select to_char(month, 'YYYY-MM') as month, sum(scheduled)::int as scheduled from session_month_stats
          where workspace_id = ${c.ws.id} group by 1 order by 1`,
    );
    // S1–S5 in September, S6–S13 in October (counted by hand above).
    expect(months).toEqual([
      { month: '2026-09', scheduled: 5 },
      { month: '2026-10', scheduled: 8 },
    ]);
    expect(await read()).toEqual(fromRows);
  });
});

describe('who sees what', () => {
  it('a therapist counts only their own, and may not ask for a colleague', async () => {
    const s = await tab(c.tere, 'sessions');
    expect([s.totals.scheduled, s.byTherapist.map((x) => x.name)]).toEqual([5, ['Tere']]);
    const asked = await t.get(`${A}/sessions?${OCT}&therapistId=${c.tomas.userId}`, { token: c.tere.accessToken });
    expect([asked.statusCode, json<{ code: string }>(asked).code]).toEqual([403, 'access_denied']);
    // The owner narrows to one therapist.
    expect((await tab(c.owner, 'sessions', `${OCT}&therapistId=${c.tomas.userId}`)).totals.scheduled).toBe(3);
    expect((await ok<DashboardStats>(t.get(`${A}/dashboard`, { token: c.tere.accessToken }))).scope).toEqual({
      workspace: false,
      therapists: [{ therapistId: c.tere.userId, name: 'Tere' }],
    });
  });

  it('Recepción counts no clinical field: no motive, no treatment status, no Tratamientos', async () => {
    const p = await tab(c.rosa, 'patients');
    expect([p.statusNow, p.byMotive, p.bySessionType, p.byReferralSource, p.dischargedByReason, p.totals.discharged]).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(p.byGender.length).toBeGreaterThan(0);
    const treatments = await t.get(`${A}/treatments?${OCT}`, { token: c.rosa.accessToken });
    expect(treatments.statusCode).toBe(403);
    const ended = await t.get(`${A}/treatments/rows?${OCT}&card=ended`, { token: c.rosa.accessToken });
    expect(ended.statusCode).toBe(403);
  });

  it('another workspace’s member reads nothing, and a bad period is a Spanish 400', async () => {
    const stranger = await therapist(t, 'extra@estadisticas.test', 'Extra');
    await createWorkspace(t, stranger, 'Otra consulta', 'freelance');
    // Not a member: the workspace is not theirs to know of.
    expect((await t.get(`${A}/sessions?${OCT}`, { token: stranger.accessToken })).statusCode).toBe(404);
    const backwards = await t.get(`${A}/sessions?from=2026-10-31&to=2026-10-01`, { token: c.owner.accessToken });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.body).toMatch(/[áéíóúñ]|fecha|periodo|período/i);
    // A missing end names it in Spanish, not by its query key.
    const missing = await t.get(`${A}/sessions?from=2026-10-01`, { token: c.owner.accessToken });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('El campo fin del periodo es obligatorio');
    expect(missing.body).not.toMatch(/campo (from|to)\b/);
  });

  it('Basic sees the dashboard, not the four tabs', async () => {
    const solo = await therapist(t, 'basico@estadisticas.test', 'Beatriz');
    const ws = await createWorkspace(t, solo, 'Consulta básica', 'freelance');
    await t.app.services.workspaces.setPlan(ws.id, { id: 'basic', seats: 1 });
    const d = await ok<DashboardStats>(t.get(`${W(ws.id)}/analytics/dashboard`, { token: solo.accessToken }));
    expect([d.advanced, d.sessions, d.revenue?.dueCents]).toEqual([false, { completed: 0, pending: 0, canceled: 0 }, 0]);
    const refused = await t.get(`${W(ws.id)}/analytics/sessions?${OCT}`, { token: solo.accessToken });
    expect([refused.statusCode, json<{ code: string }>(refused).code]).toEqual([403, 'analytics_not_in_plan']);
    // The gate keeps the plan a few seconds (featuresForRead); a change of plan is seen at once, both ways.
    await t.app.services.workspaces.setPlan(ws.id, { id: 'advance', seats: 1 });
    expect((await t.get(`${W(ws.id)}/analytics/sessions?${OCT}`, { token: solo.accessToken })).statusCode).toBe(200);
    await t.app.services.workspaces.setPlan(ws.id, { id: 'basic', seats: 1 });
    expect((await t.get(`${W(ws.id)}/analytics/sessions?${OCT}`, { token: solo.accessToken })).statusCode).toBe(403);
  });
});

describe('export', () => {
  it('a tab as CSV (Spanish amounts, «;») and as xlsx, read back', async () => {
    const csv = await t.get(`${A}/billing/export?${OCT}&format=csv`, { token: c.owner.accessToken });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain('estadisticas-facturacion-2026-10-01-2026-10-31.csv');
    expect(csv.body).toContain('Facturado;120,00;120,00');
    expect(csv.body).toContain('Importe sin facturar;165,55;105,55');
    expect(csv.body).toContain('Tomás;0,00;0,00;2;55,55;50,00');

    const x = await t.get(`${A}/sessions/export?${OCT}`, { token: c.owner.accessToken });
    expect(x.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Resumen', 'Por día', 'Por día y hora', 'Por terapeuta']);
    const summary = wb.getWorksheet('Resumen')!;
    const realizadas = summary.getSheetValues().find((r) => Array.isArray(r) && r[1] === 'Realizadas') as unknown[];
    expect(realizadas.slice(1, 4)).toEqual(['Realizadas', 5, 4]);
  });
});
