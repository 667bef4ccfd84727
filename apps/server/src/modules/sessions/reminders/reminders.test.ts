// Session reminders: due, once, moved with the session, never for a canceled one, the plan's cap, the
// member's defaults and their endpoints. Restart and two processes: reminders-processes.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { formatDayEs, shiftDay, toInstant, type NotificationSettings, type Session, type SessionConflict } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../../test/test-app';
import { clinic, nextWeek, W, type Clinic } from '../../../test/session-fixtures';
import { createWorkspace, therapist, type Therapist } from '../../../test/workspace-fixtures';
import { dueSessionsQuery } from './reminders.repository';

type Write = { session: Session; conflicts: SessionConflict[] };
const MIN = 60_000;
let t: TestApp;
let c: Clinic;
let lola: string;
const lolaEmail = 'lola.paciente@recordatorios.test';

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'recordatorios');
  const res = await t.post(
    `${W(c.ws.id)}/patients`,
    { firstName: 'Lola', lastName: 'Paciente', email: lolaEmail, assignedTherapistId: c.tere.userId },
    { token: c.owner.accessToken },
  );
  lola = json<{ id: string }>(res).id;
}, 60_000);
afterAll(() => t?.close());

const make = async (who: Therapist, body: object, ws = c.ws.id) => {
  const res = await t.post(`${W(ws)}/sessions`, body, { token: who.accessToken });
  if (res.statusCode !== 201) throw new Error(res.body);
  return json<Write>(res).session;
};
const sendDue = (at: Date) => t.app.services.reminders.sendDue(at);
const at = (s: Pick<Session, 'startsAt'>, minutesBefore: number) => new Date(Date.parse(s.startsAt) - minutesBefore * MIN);
const mailsTo = (to: string) => t.app.services.mailer.list(to, 50);
const sendsOf = (sessionId: string) =>
  t.rows<{ offset_minutes: number; outcome: string; starts_at: string }>(
    sql`select offset_minutes, outcome, starts_at from session_reminder_sends where session_id = ${sessionId} order by created_at, offset_minutes`,
  );

describe('reminders', () => {
  it('sends each reminder once when it falls due, in Spanish, with the day and time in the session’s zone, the place and the therapist', async () => {
    const day = nextWeek(2);
    const s = await make(c.tere, { patientId: lola, day, from: '18:00', to: '18:50', locationId: c.roomId, reminders: [1440, 60] });
    expect(await sendDue(at(s, 1441))).toBe(0);
    expect(await mailsTo(lolaEmail)).toHaveLength(0);

    expect(await sendDue(at(s, 1439))).toBe(1);
    const [mail] = await mailsTo(lolaEmail);
    expect(mail!.subject).toContain(`${formatDayEs(day)} a las 18:00`);
    expect(mail!.text).toContain('Hola, Lola:');
    expect(mail!.text).toContain(`Te recordamos tu sesión con Tere el `);
    expect(mail!.text).toContain(`${formatDayEs(day)} a las 18:00, hasta las 18:50.`);
    expect(mail!.text).toContain('Modalidad: Presencial.');
    expect(mail!.text).toContain('Lugar: Sala 1.');
    expect(mail!.text).toContain('— Clínica recordatorios, con Diván');
    // Again, and again later for the same offset: nothing more.
    expect(await sendDue(at(s, 1439))).toBe(0);
    expect(await sendDue(at(s, 90))).toBe(0);
    // The hour before: the second reminder.
    expect(await sendDue(at(s, 59))).toBe(1);
    expect(await sendDue(at(s, 10))).toBe(0);
    expect(await mailsTo(lolaEmail)).toHaveLength(2);
    expect((await sendsOf(s.id)).map((r) => [r.offset_minutes, r.outcome])).toEqual([
      [1440, 'sent'],
      [60, 'sent'],
    ]);
  });

  it('sends nothing once the session has started, however late the server is', async () => {
    const s = await make(c.tere, { patientId: lola, day: nextWeek(3), from: '09:00', to: '09:50', reminders: [60] });
    const before = (await mailsTo(lolaEmail)).length;
    expect(await sendDue(at(s, 0))).toBe(0);
    expect(await sendDue(at(s, -1))).toBe(0);
    expect(await mailsTo(lolaEmail)).toHaveLength(before);
    expect(await sendsOf(s.id)).toEqual([]);
  });

  it('sends one mail when several reminders are due at once (a session made late), and records the others as folded into it', async () => {
    const s = await make(c.tere, { patientId: lola, day: nextWeek(3), from: '11:00', to: '11:50', reminders: [1440, 60] });
    expect(await sendDue(at(s, 30))).toBe(1);
    expect((await sendsOf(s.id)).map((r) => [r.offset_minutes, r.outcome]).sort()).toEqual([
      [1440, 'merged'],
      [60, 'sent'],
    ]);
  });

  it('moves with the session: the old time never sends, the new one does, announcing the new day', async () => {
    const day = nextWeek(4);
    const s = await make(c.tere, { patientId: lola, day, from: '10:00', to: '10:50', reminders: [1440] });
    // Sent for the first time, then moved two days later: the reminder goes again for the new time.
    expect(await sendDue(at(s, 1439))).toBe(1);
    const moved = json<Write>(
      await t.patch(`${W(c.ws.id)}/sessions/${s.id}`, { day: shiftDay(day, 2), from: '12:00', to: '12:50' }, { token: c.tere.accessToken }),
    ).session;
    expect(moved.startsAt).toBe(toInstant(shiftDay(day, 2), '12:00', 'Europe/Madrid').toISOString());
    expect(await sendDue(at(s, 1430))).toBe(0);
    expect(await sendDue(at(moved, 1441))).toBe(0);
    expect(await sendDue(at(moved, 1439))).toBe(1);
    const [mail] = await mailsTo(lolaEmail);
    expect(mail!.subject).toContain(`${formatDayEs(shiftDay(day, 2))} a las 12:00`);

    // Moved before its reminder went: only the new time sends.
    const s2 = await make(c.tere, { patientId: lola, day: nextWeek(5), from: '10:00', to: '10:50', reminders: [60] });
    const moved2 = json<Write>(
      await t.patch(`${W(c.ws.id)}/sessions/${s2.id}`, { day: nextWeek(6), from: '16:00', to: '16:50' }, { token: c.tere.accessToken }),
    ).session;
    expect(await sendDue(at(s2, 59))).toBe(0);
    expect(await sendDue(at(moved2, 59))).toBe(1);
    expect((await sendsOf(s2.id)).map((r) => r.starts_at && new Date(r.starts_at).toISOString())).toEqual([moved2.startsAt]);
  });

  it('gives an online session the patient’s link to the video room (MeetService, wired in app.ts)', async () => {
    const s = await make(c.tere, { patientId: lola, day: nextWeek(10), from: '19:00', to: '19:50', modality: 'online', reminders: [60] });
    expect(await sendDue(at(s, 59))).toBe(1);
    const [mail] = await mailsTo(lolaEmail);
    expect(mail!.text).toContain('Modalidad: Online (videollamada).');
    expect(mail!.text).toContain(`Entrar a la videollamada: http://divan.test/meet/${s.id}?t=`);
    expect(mail!.text).not.toContain('Lugar');
  });

  it('never reminds of a canceled session', async () => {
    const s = await make(c.tere, { patientId: lola, day: nextWeek(7), from: '10:00', to: '10:50', reminders: [1440] });
    expect((await t.post(`${W(c.ws.id)}/sessions/${s.id}/cancel`, { reason: 'patient' }, { token: c.tere.accessToken })).statusCode).toBe(
      200,
    );
    expect(await sendDue(at(s, 1439))).toBe(0);
    expect(await sendDue(at(s, 1))).toBe(0);
    expect(await sendsOf(s.id)).toEqual([]);
  });

  it('sends nothing, and fails nothing, for a patient without an email', async () => {
    const s = await make(c.tere, { patientId: c.ana, day: nextWeek(8), from: '10:00', to: '10:50', reminders: [60] });
    expect(await sendDue(at(s, 59))).toBe(0);
    expect((await sendsOf(s.id)).map((r) => r.outcome)).toEqual(['no_email']);
    expect(await sendDue(at(s, 30))).toBe(0);
  });

  it('sends only what the plan allows when the reminder falls due (a workspace moved to Basic)', async () => {
    const owner = await therapist(t, 'marga@recordatorios.test', 'Marga');
    const ws = await createWorkspace(t, owner, 'Consulta Marga', 'freelance');
    await t.app.services.workspaces.setPlan(ws.id, { id: 'advance' });
    const p = json<{ id: string }>(
      await t.post(`${W(ws.id)}/patients`, { firstName: 'Pepa', email: 'pepa@recordatorios.test' }, { token: owner.accessToken }),
    ).id;
    const s = await make(owner, { patientId: p, day: nextWeek(2), from: '10:00', to: '10:50', reminders: [60, 1440] }, ws.id);
    await t.app.services.workspaces.setPlan(ws.id, { id: 'basic' });
    expect(await sendDue(at(s, 30))).toBe(1);
    expect((await sendsOf(s.id)).map((r) => [r.offset_minutes, r.outcome]).sort()).toEqual([
      [1440, 'over_plan'],
      [60, 'sent'],
    ]);
  });
});

describe('claims', () => {
  it('are purged by the hourly sweep a month after their session’s start, never before', async () => {
    const s = await make(c.tere, { patientId: lola, day: nextWeek(11), from: '10:00', to: '10:50', reminders: [60] });
    expect(await sendDue(at(s, 59))).toBe(1);
    await t.rows(sql`update session_reminder_sends set starts_at = now() - interval '31 days' where session_id = ${s.id}`);
    const kept = (await t.rows<{ n: number }>(sql`select count(*)::int as n from session_reminder_sends`))[0]!.n;
    await t.app.services.jobs.runSweeps();
    expect(await sendsOf(s.id)).toEqual([]);
    expect((await t.rows<{ n: number }>(sql`select count(*)::int as n from session_reminder_sends`))[0]!.n).toBe(kept - 1);
  });
});

describe('the sweep is indexed', () => {
  it('finds due reminders through the partial index of pending sessions with reminders, not a scan of sessions', async () => {
    const plan = await t.app.services.database.db.transaction(async (tx) => {
      // Tiny test tables favour a scan: forbid it, so the plan shows whether the index can serve the read.
      await tx.execute(sql`set local enable_seqscan = off`);
      const res = await tx.execute(sql`explain ${dueSessionsQuery(new Date(), 100)}`);
      return (res as unknown as { rows: Record<string, string>[] }).rows.map((r) => Object.values(r)[0]).join('\n');
    });
    expect(plan).toMatch(/sessions_reminders_due_idx/);
    expect(plan).not.toMatch(/Seq Scan on sessions/);
  });
});

describe('settings `notifications`', () => {
  const P = (ws: string) => `${W(ws)}/notification-settings`;
  const get = async (who: Therapist, ws = c.ws.id) => json<NotificationSettings>(await t.get(P(ws), { token: who.accessToken }));

  it('gives each member their own settings, defaults until saved; no token 401, another workspace refused', async () => {
    expect(await get(c.tomas)).toEqual({
      reminderOffsets: [1440],
      notifyPatientCanceled: true,
      notifyPatientBooked: true,
      maxReminders: 2,
      saved: false,
    });
    const saved = await t.put(
      P(c.ws.id),
      { reminderOffsets: [60, 2880], notifyPatientCanceled: false, notifyPatientBooked: true },
      { token: c.rosa.accessToken },
    );
    expect(saved.statusCode).toBe(200);
    expect(json(saved)).toEqual({
      reminderOffsets: [2880, 60],
      notifyPatientCanceled: false,
      notifyPatientBooked: true,
      maxReminders: 2,
      saved: true,
    });
    expect(await get(c.rosa)).toMatchObject({ reminderOffsets: [2880, 60], saved: true });
    // Rosa's are hers: Tomás still has the defaults.
    expect(await get(c.tomas)).toMatchObject({ reminderOffsets: [1440], saved: false });
    expect((await t.get(P(c.ws.id))).statusCode).toBe(401);
    const outsider = await therapist(t, 'fuera@recordatorios.test', 'Fuera');
    const res = await t.put(
      P(c.ws.id),
      { reminderOffsets: [60], notifyPatientCanceled: true, notifyPatientBooked: true },
      { token: outsider.accessToken },
    );
    expect([403, 404]).toContain(res.statusCode);
    expect((await t.get(P(c.ws.id), { token: outsider.accessToken })).statusCode).toBe(res.statusCode);
  });

  it('refuses offsets outside the list and more reminders than the plan allows, with the spec’s message', async () => {
    const owner = await therapist(t, 'basica@recordatorios.test', 'Bea');
    const ws = await createWorkspace(t, owner, 'Consulta Bea', 'freelance');
    await t.app.services.workspaces.setPlan(ws.id, { id: 'basic' });
    const res = await t.put(
      P(ws.id),
      { reminderOffsets: [1440, 60], notifyPatientCanceled: true, notifyPatientBooked: true },
      { token: owner.accessToken },
    );
    expect([res.statusCode, json(res).message]).toEqual([400, 'Tu plan permite 1 recordatorios por sesión']);
    const odd = await t.put(
      P(ws.id),
      { reminderOffsets: [61], notifyPatientCanceled: true, notifyPatientBooked: true },
      { token: owner.accessToken },
    );
    expect(odd.statusCode).toBe(400);
    expect(await get(owner, ws.id)).toMatchObject({ reminderOffsets: [1440], maxReminders: 1, saved: false });
  });

  it('gives a session created without reminders the therapist’s defaults, capped by the plan', async () => {
    await t.put(
      P(c.ws.id),
      { reminderOffsets: [120, 15], notifyPatientCanceled: true, notifyPatientBooked: true },
      { token: c.tere.accessToken },
    );
    // Booked by Recepción for Tere: Tere's defaults, not Rosa's.
    expect(
      (await make(c.rosa, { patientId: c.ana, therapistId: c.tere.userId, day: nextWeek(9), from: '10:00', to: '10:50' })).reminders,
    ).toEqual([120, 15]);
    expect((await make(c.tomas, { patientId: c.bruno, day: nextWeek(9), from: '11:00', to: '11:50' })).reminders).toEqual([1440]);
    expect((await make(c.tere, { patientId: c.ana, day: nextWeek(9), from: '12:00', to: '12:50', reminders: [] })).reminders).toEqual([]);
    await t.app.services.workspaces.setPlan(c.ws.id, { id: 'basic', seats: 10 });
    try {
      expect((await make(c.tere, { patientId: c.ana, day: nextWeek(9), from: '13:00', to: '13:50' })).reminders).toEqual([120]);
    } finally {
      await t.app.services.workspaces.setPlan(c.ws.id, { id: 'team', seats: 10 });
    }
  });
});
