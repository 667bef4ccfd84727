import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { isoWeekday, shiftDay, todayIn, toInstant, type DomainEvents, type Session, type SessionConflict } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../../test/test-app';
import { clinic, nextWeek, W, type Clinic } from '../../../test/session-fixtures';

type Created = { session: Session; conflicts: SessionConflict[]; series?: { id: string; count: number } };
type Updated = { session: Session; conflicts: SessionConflict[]; updated: number; removed: number };
type Canceled = { session: Session; canceled: number };
type Body = Record<string, unknown>;

let t: TestApp;
let c: Clinic;
const events: { name: string; payload: { sessionId: string; rescheduled?: boolean } }[] = [];
const S = () => `${W(c.ws.id)}/sessions`;
const token = () => ({ token: c.owner.accessToken });
const madrid = (day: string, time: string) => toInstant(day, time, 'Europe/Madrid').toISOString();
const errorOf = (res: { json(): unknown }) => {
  const b = res.json() as { code: string; message: string; fields?: { path: string; message: string }[] };
  return { code: b.code, message: b.message, fields: b.fields?.map((f) => [f.path, f.message]) };
};

/** A fresh patient of Tere's per test, so each reads only its own sessions. */
const patient = (name: string) => c.patient(name, c.tere.userId, 6000);
const createSeries = async (patientId: string, body: Body) => {
  const res = await t.post(S(), { patientId, therapistId: c.tere.userId, from: '18:00', to: '18:50', ...body }, token());
  expect(res.statusCode, res.body).toBe(201);
  return json<Created>(res);
};
const patch = async (id: string, body: Body) => {
  const res = await t.patch(`${S()}/${id}`, body, token());
  expect(res.statusCode, res.body).toBe(200);
  return json<Updated>(res);
};
const cancel = async (id: string, body: Body) => {
  const res = await t.post(`${S()}/${id}/cancel`, body, token());
  expect(res.statusCode, res.body).toBe(200);
  return json<Canceled>(res);
};
/** The patient's sessions from `from` on, read through the API (in windows of 42 days). */
async function sessionsOf(patientId: string, from: string, days = 84): Promise<Session[]> {
  const out: Session[] = [];
  for (let d = 0; d < days; d += 42) {
    const q = `from=${encodeURIComponent(madrid(shiftDay(from, d), '00:00'))}&to=${encodeURIComponent(madrid(shiftDay(from, Math.min(d + 42, days)), '00:00'))}&patientId=${patientId}`;
    out.push(...json<{ items: Session[] }>(await t.get(`${S()}?${q}`, token())).items);
  }
  return out;
}
const slot = (s: Session) => [s.day, s.from, s.series?.index ?? null];

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'series');
  for (const name of ['session.created', 'session.updated', 'session.canceled', 'session.deleted'] as const)
    t.app.services.events.on(name, (payload: DomainEvents[typeof name]) => void events.push({ name, payload }), { scope: 'once' });
}, 60_000);
afterAll(() => t?.close());

describe('creating a series', () => {
  it('weekly with a count: every occurrence at 18:00, in one series, described in Spanish, one session.created each', async () => {
    const p = await patient('Semanal');
    const day = nextWeek();
    const made = await createSeries(p, { day, recurrence: { frequency: 'weekly', end: { count: 4 } } });
    expect(made.series).toEqual({ id: made.session.series!.id, count: 4 });
    expect(made.session).toMatchObject({
      day,
      from: '18:00',
      to: '18:50',
      price: 6000,
      fee: 3600,
      series: { index: 0, frequency: 'weekly', moved: false },
    });
    expect(made.session.series!.description).toMatch(/^Cada semana, los (lunes|martes|miércoles|jueves|viernes|sábados|domingos)$/);
    const all = await sessionsOf(p, day, 42);
    expect(all.map(slot)).toEqual([0, 1, 2, 3].map((i) => [shiftDay(day, 7 * i), '18:00', i]));
    expect(new Set(all.map((s) => s.series!.id))).toEqual(new Set([made.series!.id]));
    await expect
      .poll(() => all.filter((s) => events.some((e) => e.name === 'session.created' && e.payload.sessionId === s.id)).length)
      .toBe(4);
  });

  it('every two weeks until a day (inclusive), and monthly on the same weekday position', async () => {
    const p = await patient('Quincenal');
    const day = nextWeek();
    const biweekly = await createSeries(p, { day, recurrence: { frequency: 'biweekly', end: { until: shiftDay(day, 28) } } });
    expect(biweekly.series!.count).toBe(3);
    expect(biweekly.session.series!.description).toMatch(/^Cada dos semanas, los /);
    expect((await sessionsOf(p, day, 42)).map(slot)).toEqual([0, 1, 2].map((i) => [shiftDay(day, 14 * i), '18:00', i]));

    const m = await patient('Mensual');
    const monthly = await createSeries(m, { day, from: '09:00', to: '09:45', recurrence: { frequency: 'monthly', end: { count: 3 } } });
    expect(monthly.session.series!.description).toMatch(/^Cada mes, el (primer|segundo|tercer|cuarto|último) /);
    const days = (await sessionsOf(m, day, 126)).map((s) => s.day);
    expect(days).toHaveLength(3);
    // Same weekday, a month apart (four or five weeks).
    expect(days.map(isoWeekday)).toEqual([isoWeekday(day), isoWeekday(day), isoWeekday(day)]);
    expect([28, 35]).toContain((Date.parse(days[1]!) - Date.parse(days[0]!)) / 86_400_000);
  });

  it('18:00 in Madrid stays 18:00 across the clock change of March 2027, in the stored rows', async () => {
    const p = await patient('Horario');
    const made = await createSeries(p, { day: '2027-03-16', recurrence: { frequency: 'weekly', end: { count: 4 } } });
    const rows = await t.app.services.database.db.execute(
      sql`select to_char(starts_at at time zone 'Europe/Madrid', 'YYYY-MM-DD HH24:MI') as local, to_char(starts_at at time zone 'UTC', 'HH24:MI') as utc
          from sessions where series_id = ${made.series!.id} order by series_index`,
    );
    expect((rows as unknown as { rows: { local: string; utc: string }[] }).rows).toEqual([
      { local: '2027-03-16 18:00', utc: '17:00' },
      { local: '2027-03-23 18:00', utc: '17:00' },
      { local: '2027-03-30 18:00', utc: '16:00' },
      { local: '2027-04-06 18:00', utc: '16:00' },
    ]);
  });

  it('refuses a series for a paused patient with the spec’s message, and creates nothing', async () => {
    const p = await patient('Pausado');
    expect((await t.put(`${W(c.ws.id)}/patients/${p}/treatment`, { status: 'paused' }, token())).statusCode).toBe(200);
    const res = await t.post(
      S(),
      {
        patientId: p,
        therapistId: c.tere.userId,
        day: nextWeek(),
        from: '10:00',
        to: '10:50',
        recurrence: { frequency: 'weekly', end: { count: 3 } },
      },
      token(),
    );
    expect([res.statusCode, errorOf(res).code, errorOf(res).message]).toEqual([
      409,
      'patient_not_active',
      'No puedes crear sesiones para pacientes no activos',
    ]);
  });

  it('caps reminders by the plan, and a refused series leaves no session behind', async () => {
    const p = await patient('Recordatorios');
    await t.app.services.workspaces.setPlan(c.ws.id, { id: 'basic', seats: 10 });
    try {
      const res = await t.post(
        S(),
        {
          patientId: p,
          therapistId: c.tere.userId,
          day: nextWeek(),
          from: '13:00',
          to: '13:50',
          reminders: [1440, 60],
          recurrence: { frequency: 'weekly', end: { count: 3 } },
        },
        token(),
      );
      expect([res.statusCode, errorOf(res).fields]).toEqual([400, [['reminders', 'Tu plan permite 1 recordatorios por sesión']]]);
      expect(await sessionsOf(p, nextWeek(), 42)).toEqual([]);
    } finally {
      await t.app.services.workspaces.setPlan(c.ws.id, { id: 'team', seats: 10 });
    }
  });

  it('an impossible series is invalid_series with the planner’s Spanish message on the field', async () => {
    const p = await patient('Imposible');
    const weeklyWeek = await t.post(
      S(),
      { patientId: p, day: nextWeek(), from: '10:00', to: '10:50', recurrence: { frequency: 'weekly', end: { count: 3 }, monthlyWeek: 2 } },
      token(),
    );
    expect([weeklyWeek.statusCode, errorOf(weeklyWeek).code, errorOf(weeklyWeek).fields]).toEqual([
      400,
      'invalid_series',
      [['recurrence', 'La semana del mes solo se elige en una serie mensual (1.ª a 4.ª o última).']],
    ]);
    const tooLong = await t.post(
      S(),
      {
        patientId: p,
        day: nextWeek(),
        from: '10:00',
        to: '10:50',
        recurrence: { frequency: 'weekly', end: { until: shiftDay(nextWeek(), 4 * 366) } },
      },
      token(),
    );
    expect([tooLong.statusCode, errorOf(tooLong).message]).toEqual([
      400,
      expect.stringMatching(/^Una serie puede durar como máximo 3 años/),
    ]);
    const one = await t.post(
      S(),
      { patientId: p, day: nextWeek(), from: '10:00', to: '10:50', recurrence: { frequency: 'weekly', end: { count: 1 } } },
      token(),
    );
    expect([one.statusCode, errorOf(one).message]).toEqual([400, 'Una serie tiene al menos 2 sesiones']);
  });

  it('returns the conflicts over all the occurrences, each once', async () => {
    const p = await patient('Conflictos');
    const day = nextWeek(3);
    const single = json<Created>(
      await t.post(S(), { patientId: c.ana, therapistId: c.tere.userId, day: shiftDay(day, 14), from: '18:20', to: '19:10' }, token()),
    ).session;
    const made = await createSeries(p, { day, recurrence: { frequency: 'weekly', end: { count: 3 } } });
    expect(made.conflicts.map((x) => [x.id, x.kind])).toEqual([[single.id, 'therapist']]);
  });
});

describe('editing a series', () => {
  it('"only this one": the moved occurrence keeps its series and index, marked moved; the others stay', async () => {
    const p = await patient('Esta');
    const day = nextWeek();
    const made = await createSeries(p, { day, recurrence: { frequency: 'weekly', end: { count: 3 } } });
    const second = (await sessionsOf(p, day, 42))[1]!;
    const moved = await patch(second.id, { day: shiftDay(second.day, 1), from: '19:00', to: '19:50' });
    expect([moved.updated, moved.removed, moved.session.series]).toEqual([1, 0, { ...second.series, moved: true }]);
    expect((await sessionsOf(p, day, 42)).map(slot)).toEqual([
      [day, '18:00', 0],
      [shiftDay(day, 8), '19:00', 1],
      [shiftDay(day, 14), '18:00', 2],
    ]);
    // A field for one session only; the scope is ignored outside a series.
    expect((await patch(made.session.id, { price: 7000, scope: 'this' })).session.price).toBe(7000);
    const lone = json<Created>(
      await t.post(S(), { patientId: c.ana, therapistId: c.tere.userId, day, from: '08:00', to: '08:50' }, token()),
    ).session;
    expect((await patch(lone.id, { price: 100, scope: 'all' })).updated).toBe(1);
    // Payment belongs to one session: with a series scope it touches only the chosen one, and splits nothing.
    const invoiced = await patch(second.id, { invoiced: true, scope: 'all' });
    expect([invoiced.updated, invoiced.session.invoiced, invoiced.session.series?.id]).toEqual([1, true, second.series!.id]);
    expect((await sessionsOf(p, day, 42)).map((s) => [s.invoiced, s.series!.id])).toEqual(
      [false, true, false].map((i) => [i, second.series!.id]),
    );
    const refused = await t.patch(`${S()}/${second.id}`, { scope: 'this', recurrence: { frequency: 'biweekly' } }, token());
    expect([refused.statusCode, errorOf(refused).fields]).toEqual([
      400,
      [['recurrence', 'Para cambiar la frecuencia o el final elige «Esta y las siguientes» o «Todas»']],
    ]);
  });

  it('"this and following" splits the series: the earlier ones keep theirs, the rest form a new one, each with its event', async () => {
    const p = await patient('Siguientes');
    const day = nextWeek();
    const made = await createSeries(p, { day, recurrence: { frequency: 'weekly', end: { count: 5 } } });
    const before = await sessionsOf(p, day, 42);
    const res = await patch(before[2]!.id, { day: before[2]!.day, from: '19:00', to: '19:45', price: 6500, scope: 'following' });
    expect([res.updated, res.removed]).toEqual([3, 0]);
    const after = await sessionsOf(p, day, 42);
    expect(after.map((s) => [s.day, s.from, s.to, s.price])).toEqual([
      [day, '18:00', '18:50', 6000],
      [shiftDay(day, 7), '18:00', '18:50', 6000],
      [shiftDay(day, 14), '19:00', '19:45', 6500],
      [shiftDay(day, 21), '19:00', '19:45', 6500],
      [shiftDay(day, 28), '19:00', '19:45', 6500],
    ]);
    const newId = after[2]!.series!.id;
    expect(
      after.map((s) => [s.id, s.series!.id === made.series!.id ? 'old' : s.series!.id === newId ? 'new' : '?', s.series!.index]),
    ).toEqual(before.map((s, i) => [s.id, i < 2 ? 'old' : 'new', i < 2 ? i : i - 2]));
    expect(after[2]!.fee).toBe(6500 - 2600); // the price less the clinic's 40 %
    await expect
      .poll(
        () =>
          before
            .slice(2)
            .filter((s) => events.some((e) => e.name === 'session.updated' && e.payload.sessionId === s.id && e.payload.rescheduled))
            .length,
      )
      .toBe(3);
    // Fewer sessions from the split on: the last one goes (it had nothing on it).
    const shorter = await patch(after[2]!.id, { scope: 'following', recurrence: { end: { count: 2 } } });
    expect([shorter.updated, shorter.removed]).toEqual([0, 1]);
    await expect.poll(() => events.find((e) => e.name === 'session.deleted' && e.payload.sessionId === after[4]!.id)).toBeTruthy();
    expect((await sessionsOf(p, day, 42)).map((s) => s.id)).toEqual(after.slice(0, 4).map((s) => s.id));
  });

  it('"all" leaves the started, completed and canceled ones where they were, and applies from the first not started', async () => {
    const p = await patient('Todas');
    const start = shiftDay(todayIn('Europe/Madrid'), -15);
    // -15, -8 and -1 days (started), +6 and +13 (not yet), +20 (to be canceled).
    const made = await createSeries(p, { day: start, recurrence: { frequency: 'weekly', end: { count: 6 } } });
    const before = await sessionsOf(p, start, 42);
    expect(before).toHaveLength(6);
    await t.post(`${S()}/${before[1]!.id}/complete`, undefined, token());
    await cancel(before[5]!.id, { reason: 'patient' });
    const res = await patch(before[0]!.id, { day: before[0]!.day, from: '17:00', to: '17:50', scope: 'all' });
    expect([res.updated, res.removed]).toEqual([3, 0]);
    const after = await sessionsOf(p, start, 42);
    expect(after.map((s) => [s.id, s.day, s.from, s.status])).toEqual([
      [before[0]!.id, start, '18:00', 'pending'],
      [before[1]!.id, shiftDay(start, 7), '18:00', 'completed'],
      [before[2]!.id, shiftDay(start, 14), '18:00', 'pending'],
      [before[3]!.id, shiftDay(start, 21), '17:00', 'pending'],
      [before[4]!.id, shiftDay(start, 28), '17:00', 'pending'],
      [before[5]!.id, shiftDay(start, 35), '18:00', 'canceled'],
    ]);
    // History keeps the old series (now ending before the split); the rest is a new series.
    expect(after.slice(0, 3).every((s) => s.series!.id === made.series!.id)).toBe(true);
    expect(new Set(after.slice(3).map((s) => s.series!.id)).size).toBe(1);
    expect(after[3]!.series!.id).not.toBe(made.series!.id);
    expect(after.slice(3).map((s) => s.series!.index)).toEqual([0, 1, 2]);
    // The response is the chosen session, untouched (it had started).
    expect([res.session.id, res.session.from]).toEqual([before[0]!.id, '18:00']);
  });

  it('moving the day of "all" never deletes a paid one silently: refused, naming it; once canceled it is kept outside the series', async () => {
    const p = await patient('Pagada');
    const day = nextWeek();
    await createSeries(p, { day, recurrence: { frequency: 'weekly', end: { count: 3 } } });
    const before = await sessionsOf(p, day, 42);
    expect((await t.post(`${S()}/${before[1]!.id}/payment`, { paymentType: 'cash' }, token())).statusCode).toBe(200);
    const body = { day: shiftDay(before[0]!.day, 1), from: '18:00', to: '18:50', scope: 'all' };
    const refused = await t.patch(`${S()}/${before[0]!.id}`, body, token());
    const d = before[1]!.day;
    expect([refused.statusCode, errorOf(refused).code, errorOf(refused).message]).toEqual([
      409,
      'series_session_protected',
      `La sesión del ${d.slice(8)}/${d.slice(5, 7)}/${d.slice(0, 4)} está pagada, facturada o tiene nota y dejaría de estar en la serie: cámbiala o cancélala antes de cambiar la serie.`,
    ]);
    expect((await sessionsOf(p, day, 42)).map((s) => s.id)).toEqual(before.map((s) => s.id));

    await cancel(before[1]!.id, { reason: 'therapist' });
    const res = await patch(before[0]!.id, body);
    expect([res.updated, res.removed]).toEqual([3, 3]);
    const after = await sessionsOf(p, day, 42);
    const kept = after.find((s) => s.id === before[1]!.id)!;
    expect([kept.status, kept.paymentStatus, kept.series]).toEqual(['canceled', 'paid', null]);
    expect(after.filter((s) => s.series).map((s) => [s.day, s.series!.index])).toEqual([0, 1, 2].map((i) => [shiftDay(day, 1 + 7 * i), i]));
    expect(res.session).toMatchObject({ day: shiftDay(day, 1), series: { index: 0 } });
  });

  it('nor one with its clinical note: shortening the series past it is refused', async () => {
    const p = await patient('ConNota');
    const day = nextWeek();
    await createSeries(p, { day, recurrence: { frequency: 'weekly', end: { count: 3 } } });
    const s = await sessionsOf(p, day, 42);
    const note = await t.post(`${S()}/${s[2]!.id}/note`, { title: 'Preparación', body: '<p>Antes de la sesión</p>' }, token());
    expect(note.statusCode, note.body).toBe(201);
    const res = await t.patch(`${S()}/${s[0]!.id}`, { scope: 'all', recurrence: { end: { count: 2 } } }, token());
    expect([res.statusCode, errorOf(res).code]).toEqual([409, 'series_session_protected']);
    expect((await sessionsOf(p, day, 42)).map((x) => x.id)).toEqual(s.map((x) => x.id));
  });

  it('a restricted Terapeuta edits and cancels only series of their own', async () => {
    const p = await patient('Propia');
    const day = nextWeek();
    const mine = json<Created>(
      await t.post(
        S(),
        { patientId: p, day, from: '11:00', to: '11:50', recurrence: { frequency: 'weekly', end: { count: 3 } } },
        { token: c.tere.accessToken },
      ),
    );
    expect(mine.series!.count).toBe(3);
    const forTomas = await t.post(
      S(),
      {
        patientId: p,
        therapistId: c.tomas.userId,
        day,
        from: '12:00',
        to: '12:50',
        recurrence: { frequency: 'weekly', end: { count: 3 } },
      },
      { token: c.tere.accessToken },
    );
    expect([forTomas.statusCode, errorOf(forTomas).code]).toEqual([403, 'access_denied']);
    const handOver = await t.patch(
      `${S()}/${mine.session.id}`,
      { therapistId: c.tomas.userId, scope: 'all' },
      { token: c.tere.accessToken },
    );
    expect([handOver.statusCode, errorOf(handOver).code]).toEqual([403, 'access_denied']);
    const bruno = json<Created>(
      await t.post(
        S(),
        {
          patientId: c.bruno,
          therapistId: c.tomas.userId,
          day,
          from: '12:00',
          to: '12:50',
          recurrence: { frequency: 'weekly', end: { count: 2 } },
        },
        token(),
      ),
    );
    for (const res of [
      await t.patch(`${S()}/${bruno.session.id}`, { price: 1, scope: 'all' }, { token: c.tere.accessToken }),
      await t.post(`${S()}/${bruno.session.id}/cancel`, { reason: 'patient', scope: 'all' }, { token: c.tere.accessToken }),
    ])
      expect([res.statusCode, errorOf(res).code]).toEqual([404, 'therapy_session_not_found']);
    const edited = await t.patch(`${S()}/${mine.session.id}`, { price: 5000, scope: 'all' }, { token: c.tere.accessToken });
    expect([edited.statusCode, json<Updated>(edited).updated]).toEqual([200, 3]);
  });
});

describe('canceling in a series', () => {
  it('this one, this and the following, or all the pending ones; each with its session.canceled', async () => {
    const p = await patient('Cancelar');
    const day = nextWeek();
    await createSeries(p, { day, recurrence: { frequency: 'weekly', end: { count: 5 } } });
    const s = await sessionsOf(p, day, 42);
    expect((await cancel(s[1]!.id, { reason: 'patient' })).canceled).toBe(1);
    const following = await cancel(s[3]!.id, { reason: 'late', scope: 'following' });
    expect([following.canceled, following.session.status, following.session.cancellationReason]).toEqual([2, 'canceled', 'late']);
    expect((await sessionsOf(p, day, 42)).map((x) => x.status)).toEqual(['pending', 'canceled', 'pending', 'canceled', 'canceled']);
    const all = await cancel(s[4]!.id, { reason: 'therapist', scope: 'all' });
    expect(all.canceled).toBe(2);
    const after = await sessionsOf(p, day, 42);
    expect(after.map((x) => [x.status, x.cancellationReason])).toEqual([
      ['canceled', 'therapist'],
      ['canceled', 'patient'],
      ['canceled', 'therapist'],
      ['canceled', 'late'],
      ['canceled', 'late'],
    ]);
    await expect
      .poll(() => s.filter((x) => events.some((e) => e.name === 'session.canceled' && e.payload.sessionId === x.id)).length)
      .toBe(5);
    // Canceled occurrences stay in their series (statistics of no-shows and late cancellations).
    expect(after.every((x) => x.series?.id === s[0]!.series!.id)).toBe(true);
  });

  it('"all" leaves the sessions already started', async () => {
    const p = await patient('CancelarPasado');
    const start = shiftDay(todayIn('Europe/Madrid'), -8);
    await createSeries(p, { day: start, recurrence: { frequency: 'weekly', end: { count: 4 } } });
    const s = await sessionsOf(p, start, 42);
    const res = await cancel(s[0]!.id, { reason: 'patient', scope: 'all' });
    expect([res.canceled, res.session.status]).toEqual([2, 'pending']);
    expect((await sessionsOf(p, start, 42)).map((x) => x.status)).toEqual(['pending', 'pending', 'canceled', 'canceled']);
  });
});
