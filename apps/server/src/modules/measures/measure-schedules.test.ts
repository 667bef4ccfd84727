// Measure schedules tied to sessions (issue 32): sent 24 h before each pending session the cadence picks,
// once per session whatever the retries or processes, never for a canceled one; pause, resume, stop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { shiftDay, type MeasureAdministration, type MeasureSchedule, type Session } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { clinic, nextWeek, W, type Clinic } from '../../test/session-fixtures';

const HOUR = 3_600_000;
let t: TestApp;
let c: Clinic;
const codeOf = (res: { json(): unknown }) => (res.json() as { code: string }).code;
const tokenIn = (text: string) => /\/p\/cuestionario\/([A-Za-z0-9_-]+)/.exec(text)?.[1];

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'programadas');
}, 60_000);
afterAll(() => t?.close());

async function patient(firstName: string, email: string | null = `${firstName.toLowerCase()}@programadas.test`) {
  const res = await t.post(
    `${W(c.ws.id)}/patients`,
    { firstName, lastName: 'Prueba', email, assignedTherapistId: c.tere.userId },
    { token: c.owner.accessToken },
  );
  expect(res.statusCode, res.body).toBe(201);
  return json<{ id: string }>(res).id;
}
async function session(patientId: string, day: string, from = '10:00', to = '10:50') {
  const res = await t.post(`${W(c.ws.id)}/sessions`, { patientId, day, from, to, locationId: c.roomId }, { token: c.tere.accessToken });
  expect(res.statusCode, res.body).toBe(201);
  return json<{ session: Session }>(res).session;
}
const S = (patientId: string) => `${W(c.ws.id)}/patients/${patientId}/measure-schedules`;
async function schedule(patientId: string, body: object) {
  const res = await t.post(S(patientId), body, { token: c.tere.accessToken });
  expect(res.statusCode, res.body).toBe(201);
  return json<MeasureSchedule>(res);
}
const before = (s: Session, hours: number) => new Date(Date.parse(s.startsAt) - hours * HOUR);
const sweep = (at: Date) => t.app.services.measureSchedules.sendScheduled(at);
const sentOf = async (patientId: string) =>
  json<MeasureAdministration[]>(await t.get(`${W(c.ws.id)}/patients/${patientId}/measures`, { token: c.tere.accessToken }));

describe('measure schedules', () => {
  it('before each session: mailed 24 h ahead with its own link, once, whatever the retries or two sweeps at once; a canceled session sends nothing', async () => {
    const email = 'marta@programadas.test';
    const marta = await patient('Marta', email);
    const s1 = await session(marta, nextWeek(1));
    const s2 = await session(marta, nextWeek(2));
    const s3 = await session(marta, nextWeek(3));
    const sch = await schedule(marta, { measure: 'phq9', cadence: 'each_session' });
    expect(sch).toMatchObject({
      measure: 'phq9',
      cadence: 'each_session',
      everyWeeks: null,
      status: 'active',
      hoursBefore: 24,
      lastSentAt: null,
    });

    expect(await sweep(before(s1, 25))).toBe(0);
    expect(await t.app.services.mailer.list(email, 10)).toHaveLength(0);
    expect(await sweep(before(s1, 23))).toBe(1);
    const [mail] = await t.app.services.mailer.list(email, 10);
    expect(mail!.subject).toContain('cuestionario');
    const token = tokenIn(mail!.text)!;
    expect(json(await t.get(`/api/v1/public/measures/${token}`))).toMatchObject({ measure: 'phq9' });
    const [admin] = await sentOf(marta);
    expect(admin).toMatchObject({ measure: 'phq9', status: 'sent', mode: 'link', therapist: { id: c.tere.userId } });
    // A retried sweep, and later ones inside the window: nothing more for that session.
    expect(await sweep(before(s1, 23))).toBe(0);
    expect(await sweep(before(s1, 2))).toBe(0);

    // Two sweeps at once (two workers): one send.
    const both = await Promise.all([sweep(before(s2, 20)), sweep(before(s2, 20))]);
    expect(both[0]! + both[1]!).toBe(1);
    const claims = await t.rows<{ key: string }>(sql`select key from job_claims where key like ${`measure-schedule:${sch.id}:%`}`);
    expect(claims.map((r) => r.key).sort()).toEqual([`measure-schedule:${sch.id}:${s1.id}`, `measure-schedule:${sch.id}:${s2.id}`].sort());

    const cancel = await t.post(`${W(c.ws.id)}/sessions/${s3.id}/cancel`, { reason: 'patient' }, { token: c.tere.accessToken });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await sweep(before(s3, 23))).toBe(0);
    expect(await sentOf(marta)).toHaveLength(2);
    expect(await t.app.services.mailer.list(email, 10)).toHaveLength(2);
    const listed = json<MeasureSchedule[]>(await t.get(S(marta), { token: c.tere.accessToken }));
    expect(listed[0]!.lastSentAt).toBe(before(s2, 20).toISOString());
  });

  it('every other session sends for the 1st and 3rd; every 2 weeks, with weekly sessions, for weeks 0 and 2', async () => {
    const nico = await patient('Nico');
    await schedule(nico, { measure: 'gad7', cadence: 'every_other_session' });
    const eva = await patient('Eva');
    await schedule(eva, { measure: 'who5', cadence: 'every_n_weeks', everyWeeks: 2 });
    const counts: Record<string, number[]> = { nico: [], eva: [] };
    for (let i = 0; i < 4; i++) {
      const n = await session(nico, nextWeek(1 + i), '12:00', '12:50');
      counts.nico!.push(await sweep(before(n, 23)));
      const e = await session(eva, shiftDay(nextWeek(1), 7 * i), '16:00', '16:50');
      counts.eva!.push(await sweep(before(e, 23)));
    }
    expect(counts).toEqual({ nico: [1, 0, 1, 0], eva: [1, 0, 1, 0] });
    expect((await sentOf(nico)).map((a) => a.measure)).toEqual(['gad7', 'gad7']);
    expect((await sentOf(eva)).map((a) => a.measure)).toEqual(['who5', 'who5']);
  });

  it('paused sends nothing and resumed sends again; stopped for good, then a new one may be set; one open per measure', async () => {
    const pau = await patient('Pau');
    const sch = await schedule(pau, { measure: 'core10', cadence: 'each_session' });
    expect(codeOf(await t.post(S(pau), { measure: 'core10', cadence: 'every_other_session' }, { token: c.tere.accessToken }))).toBe(
      'measure_schedule_exists',
    );
    const s1 = await session(pau, nextWeek(1), '09:00', '09:50');
    const paused = await t.patch(`${S(pau)}/${sch.id}`, { status: 'paused' }, { token: c.tere.accessToken });
    expect(paused.statusCode, paused.body).toBe(200);
    expect(json<MeasureSchedule>(paused).status).toBe('paused');
    expect(await sweep(before(s1, 23))).toBe(0);
    // Resumed while the session is still ahead: it is sent (nothing was claimed while paused).
    const resumed = json<MeasureSchedule>(
      await t.patch(`${S(pau)}/${sch.id}`, { status: 'active', cadence: 'every_n_weeks', everyWeeks: 3 }, { token: c.tere.accessToken }),
    );
    expect(resumed).toMatchObject({ status: 'active', cadence: 'every_n_weeks', everyWeeks: 3 });
    expect(await sweep(before(s1, 10))).toBe(1);

    const stopped = await t.post(`${S(pau)}/${sch.id}/stop`, {}, { token: c.tere.accessToken });
    expect([stopped.statusCode, json<MeasureSchedule>(stopped).status]).toEqual([200, 'stopped']);
    const s2 = await session(pau, shiftDay(nextWeek(1), 28), '09:00', '09:50');
    expect(await sweep(before(s2, 23))).toBe(0);
    expect(codeOf(await t.patch(`${S(pau)}/${sch.id}`, { status: 'active' }, { token: c.tere.accessToken }))).toBe(
      'measure_schedule_stopped',
    );
    const again = await schedule(pau, { measure: 'core10', cadence: 'each_session' });
    expect(json<MeasureSchedule[]>(await t.get(S(pau), { token: c.tere.accessToken })).map((s) => [s.id, s.status])).toEqual([
      [again.id, 'active'],
      [sch.id, 'stopped'],
    ]);
  });

  it('refuses bad input in Spanish, a patient without email, and Recepción', async () => {
    const sin = await patient('Sin', null);
    expect(codeOf(await t.post(S(sin), { measure: 'phq9', cadence: 'each_session' }, { token: c.tere.accessToken }))).toBe(
      'measure_patient_no_email',
    );
    const ok = await patient('Olga');
    const noWeeks = await t.post(S(ok), { measure: 'phq9', cadence: 'every_n_weeks' }, { token: c.tere.accessToken });
    expect(noWeeks.statusCode).toBe(400);
    expect(noWeeks.json()).toMatchObject({
      code: 'invalid_argument',
      fields: [{ path: 'everyWeeks', message: 'Indica cada cuántas semanas' }],
    });
    const tooMany = await t.post(S(ok), { measure: 'phq9', cadence: 'every_n_weeks', everyWeeks: 40 }, { token: c.tere.accessToken });
    expect(tooMany.statusCode).toBe(400);
    const sch = await schedule(ok, { measure: 'phq9', cadence: 'every_n_weeks', everyWeeks: 4 });
    const token = c.rosa.accessToken;
    for (const res of [
      await t.get(S(ok), { token }),
      await t.post(S(ok), { measure: 'gad7', cadence: 'each_session' }, { token }),
      await t.patch(`${S(ok)}/${sch.id}`, { status: 'paused' }, { token }),
      await t.post(`${S(ok)}/${sch.id}/stop`, {}, { token }),
    ])
      expect(res.statusCode, res.body).toBe(403);
    expect(codeOf(await t.post(`${S(ok)}/${crypto.randomUUID()}/stop`, {}, { token: c.tere.accessToken }))).toBe(
      'measure_schedule_not_found',
    );
  });
});

describe('risk flags on the dashboard', () => {
  it("lists the unreviewed flags of the caller's patients (all for the owner), none for another therapist, 403 for Recepción; reviewed, gone", async () => {
    const F = `${W(c.ws.id)}/measure-flags`;
    const res = await t.post(
      `${W(c.ws.id)}/patients/${c.ana}/measures/administer`,
      { measure: 'phq9', answers: [0, 1, 0, 1, 0, 1, 0, 0, 2] },
      { token: c.tere.accessToken },
    );
    expect(res.statusCode, res.body).toBe(201);
    const flagged = json<MeasureAdministration>(res);
    await t.post(
      `${W(c.ws.id)}/patients/${c.ana}/measures/administer`,
      { measure: 'phq9', answers: [0, 0, 0, 0, 0, 0, 0, 0, 0] },
      { token: c.tere.accessToken },
    );
    const expected = [
      {
        administrationId: flagged.id,
        patient: { id: c.ana, name: 'Ana Prueba' },
        measure: 'phq9',
        measureName: 'PHQ-9',
        completedAt: flagged.completedAt,
      },
    ];
    expect(json(await t.get(F, { token: c.tere.accessToken }))).toEqual(expected);
    expect(json(await t.get(F, { token: c.owner.accessToken }))).toEqual(expected);
    expect(json(await t.get(F, { token: c.tomas.accessToken }))).toEqual([]);
    const recep = await t.get(F, { token: c.rosa.accessToken });
    expect([recep.statusCode, codeOf(recep)]).toEqual([403, 'access_denied']);
    // Nothing clinical in it: no answers, no scores.
    expect(JSON.stringify(json(await t.get(F, { token: c.tere.accessToken })))).not.toMatch(/answers|scores|band/);

    expect(
      (await t.post(`${W(c.ws.id)}/patients/${c.ana}/measures/${flagged.id}/review`, {}, { token: c.tere.accessToken })).statusCode,
    ).toBe(200);
    expect(json(await t.get(F, { token: c.tere.accessToken }))).toEqual([]);
  });
});
