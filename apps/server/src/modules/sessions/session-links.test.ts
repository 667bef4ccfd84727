import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeSessionGrid,
  GRID_FLAG,
  shiftDay,
  toInstant,
  type HistoryEntry,
  type PatientSessions,
  type Session,
  type SessionGrid,
} from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { clinic, nextWeek, W, type Clinic } from '../../test/session-fixtures';
import type { Therapist } from '../../test/workspace-fixtures';

let t: TestApp;
let c: Clinic;
let other: Clinic;
const codeOf = (res: { json(): unknown }) => (res.json() as { code: string }).code;
const book = async (who: Therapist, body: object, ws = c.ws.id) => {
  const res = await t.post(`${W(ws)}/sessions`, body, { token: who.accessToken });
  if (res.statusCode !== 201) throw new Error(res.body);
  return json<{ session: Session }>(res).session;
};
const getSession = async (who: Therapist, id: string) => {
  const res = await t.get(`${W(c.ws.id)}/sessions/${id}`, { token: who.accessToken });
  expect(res.statusCode, res.body).toBe(200);
  return json<Session>(res);
};
const note = (who: Therapist, sessionId: string, body: object = { title: 'Nota de sesión', body: '<p>Trabajamos la ansiedad.</p>' }) =>
  t.post(`${W(c.ws.id)}/sessions/${sessionId}/note`, body, { token: who.accessToken });
const patientSessions = async (who: Therapist, patientId: string, page = 1) => {
  const res = await t.get(`${W(c.ws.id)}/patients/${patientId}/sessions?page=${page}`, { token: who.accessToken });
  expect(res.statusCode, res.body).toBe(200);
  return json<PatientSessions>(res);
};

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'notas');
  other = await clinic(t, 'notas-otra');
}, 60_000);
afterAll(() => t?.close());

describe("a session's clinical note", () => {
  it('is a history entry of its patient, dated the session’s day, linked, and marks the session as noted', async () => {
    const s = await book(c.tere, { patientId: c.ana, day: nextWeek(-8), from: '10:00', to: '10:50' });
    await t.post(`${W(c.ws.id)}/sessions/${s.id}/complete`, undefined, { token: c.tere.accessToken });
    expect(await getSession(c.tere, s.id)).toMatchObject({ status: 'completed', noteId: null, noteMissing: true });

    const res = await note(c.tere, s.id);
    expect(res.statusCode, res.body).toBe(201);
    const entry = json<HistoryEntry>(res);
    expect(entry).toMatchObject({ title: 'Nota de sesión', date: s.day, sessionId: s.id, author: { id: c.tere.userId } });
    // In the patient's history, readable as any entry.
    const history = json<HistoryEntry[]>(await t.get(`${W(c.ws.id)}/patients/${c.ana}/history`, { token: c.tere.accessToken }));
    expect(history.find((h) => h.id === entry.id)?.sessionId).toBe(s.id);
    expect(await getSession(c.tere, s.id)).toMatchObject({ noteId: entry.id, noteMissing: false });
  });

  it('is one per session: a second is refused with a Spanish message', async () => {
    const s = await book(c.tere, { patientId: c.ana, day: nextWeek(-7), from: '11:00', to: '11:50' });
    expect((await note(c.tere, s.id)).statusCode).toBe(201);
    const again = await note(c.tere, s.id);
    expect([again.statusCode, codeOf(again)]).toEqual([409, 'session_note_exists']);
    expect((again.json() as { message: string }).message).toMatch(/ya tiene su nota/);
  });

  it('after its entry is deleted, the session lacks its note again and a new one can be written', async () => {
    const s = await book(c.tere, { patientId: c.ana, day: nextWeek(-6), from: '12:00', to: '12:50' });
    await t.post(`${W(c.ws.id)}/sessions/${s.id}/complete`, undefined, { token: c.tere.accessToken });
    const entry = json<HistoryEntry>(await note(c.tere, s.id));
    expect((await t.del(`${W(c.ws.id)}/patients/${c.ana}/history/${entry.id}`, { token: c.tere.accessToken })).statusCode).toBe(204);
    expect(await getSession(c.tere, s.id)).toMatchObject({ noteId: null, noteMissing: true });
    expect((await note(c.tere, s.id)).statusCode).toBe(201);
  });

  it('someone else’s private note counts as written but its id is not given', async () => {
    const s = await book(c.owner, { patientId: c.ana, therapistId: c.tere.userId, day: nextWeek(-5), from: '13:00', to: '13:50' });
    await t.post(`${W(c.ws.id)}/sessions/${s.id}/complete`, undefined, { token: c.owner.accessToken });
    expect((await note(c.tere, s.id, { title: 'Privada', body: '', private: true })).statusCode).toBe(201);
    expect(await getSession(c.owner, s.id)).toMatchObject({ noteId: null, noteMissing: false });
  });

  it('Recepción sees neither the note nor whether it is missing, and may not write one', async () => {
    const s = await book(c.rosa, { patientId: c.bruno, therapistId: c.tomas.userId, day: nextWeek(-4), from: '09:00', to: '09:50' });
    const seen = await getSession(c.rosa, s.id);
    expect('noteId' in seen || 'noteMissing' in seen).toBe(false);
    const res = await note(c.rosa, s.id);
    expect([res.statusCode, codeOf(res)]).toEqual([403, 'access_denied']);
  });

  it('the calendar grid flags a completed session without its note only to who reads clinical history', async () => {
    const day = nextWeek(-2);
    const s = await book(c.owner, { patientId: c.bruno, therapistId: c.tomas.userId, day, from: '16:00', to: '16:50' });
    await t.post(`${W(c.ws.id)}/sessions/${s.id}/complete`, undefined, { token: c.owner.accessToken });
    const gridOf = async (who: Therapist) => {
      const [from, to] = [day, shiftDay(day, 1)].map((d) => toInstant(d, '00:00', 'Europe/Madrid').toISOString());
      const res = await t.get(`${W(c.ws.id)}/sessions/grid?from=${from}&to=${to}`, { token: who.accessToken });
      expect(res.statusCode, res.body).toBe(200);
      return json<SessionGrid>(res);
    };
    const owners = await gridOf(c.owner);
    expect(decodeSessionGrid(owners).find((g) => g.id === s.id)).toMatchObject({ status: 'completed', noteMissing: true });
    // Recepción reads the session, never the clinical bit: no session of the range carries it for them.
    const reception = await gridOf(c.rosa);
    expect(decodeSessionGrid(reception).find((g) => g.id === s.id)).toMatchObject({ status: 'completed', noteMissing: false });
    expect(reception.sessions.flags.some((f) => (f & GRID_FLAG.noteMissing) !== 0)).toBe(false);
  });

  it('a Terapeuta cannot note a colleague’s session (404, it does not exist for them), nor one of another workspace', async () => {
    const s = await book(c.owner, { patientId: c.bruno, therapistId: c.tomas.userId, day: nextWeek(-3), from: '09:00', to: '09:50' });
    const res = await note(c.tere, s.id);
    expect([res.statusCode, codeOf(res)]).toEqual([404, 'therapy_session_not_found']);
    const foreign = await book(
      other.owner,
      { patientId: other.ana, therapistId: other.owner.userId, day: nextWeek(-3), from: '09:00', to: '09:50' },
      other.ws.id,
    );
    const cross = await note(c.owner, foreign.id);
    expect([cross.statusCode, codeOf(cross)]).toEqual([404, 'therapy_session_not_found']);
  });
});

describe("the patient's sessions", () => {
  it('lists newest first with totals: attended, canceled (no-shows and late apart), upcoming, pending payment', async () => {
    const p = await c.patient('Carmen', c.tere.userId, 5000);
    const s1 = await book(c.tere, { patientId: p, day: nextWeek(-10), from: '10:00', to: '10:50' });
    const s2 = await book(c.tere, { patientId: p, day: nextWeek(-9), from: '10:00', to: '10:50' });
    const s3 = await book(c.tere, { patientId: p, day: nextWeek(-8), from: '10:00', to: '10:50' });
    const s4 = await book(c.tere, { patientId: p, day: nextWeek(-7), from: '10:00', to: '10:50' });
    const s5 = await book(c.tere, { patientId: p, day: nextWeek(2), from: '10:00', to: '10:50' });
    for (const s of [s1, s2]) await t.post(`${W(c.ws.id)}/sessions/${s.id}/complete`, undefined, { token: c.tere.accessToken });
    await t.post(`${W(c.ws.id)}/sessions/${s1.id}/payment`, { paymentType: 'cash' }, { token: c.tere.accessToken });
    await t.post(`${W(c.ws.id)}/sessions/${s3.id}/cancel`, { reason: 'no_show' }, { token: c.tere.accessToken });
    await t.post(`${W(c.ws.id)}/sessions/${s4.id}/cancel`, { reason: 'late' }, { token: c.tere.accessToken });

    const page = await patientSessions(c.tere, p);
    expect(page.items.map((s) => s.id)).toEqual([s5.id, s4.id, s3.id, s2.id, s1.id]);
    expect(page.totals).toEqual({
      total: 5,
      attended: 2,
      canceled: 2,
      noShows: 1,
      lateCancellations: 1,
      upcoming: 1,
      pendingPayment: 1,
      pendingPaymentAmount: 5000,
    });
    expect(page.items.find((s) => s.id === s2.id)).toMatchObject({ noteMissing: true });
  });

  it('pages by 25', async () => {
    const p = await c.patient('Diego', c.tere.userId, 4000);
    for (let i = 0; i < 27; i++)
      await book(c.tere, {
        patientId: p,
        day: nextWeek(i % 6),
        from: `${String(8 + Math.floor(i / 6)).padStart(2, '0')}:00`,
        to: `${String(8 + Math.floor(i / 6)).padStart(2, '0')}:30`,
      });
    const [first, second] = [await patientSessions(c.tere, p, 1), await patientSessions(c.tere, p, 2)];
    expect([first.items.length, second.items.length, first.totals.total, first.pageSize]).toEqual([25, 2, 27, 25]);
    expect(new Set([...first.items, ...second.items].map((s) => s.id)).size).toBe(27);
  });

  it('follows the member’s scopes: a Terapeuta of another patient gets 404; a colleague’s sessions of a shared patient are not counted', async () => {
    const res = await t.get(`${W(c.ws.id)}/patients/${c.bruno}/sessions`, { token: c.tere.accessToken });
    expect([res.statusCode, codeOf(res)]).toEqual([404, 'patient_not_found']);
    // Rosa (Recepción) books Tomás a session with Ana: the owner sees both therapists' sessions, Tere only hers.
    const tomas = await book(c.rosa, { patientId: c.ana, therapistId: c.tomas.userId, day: nextWeek(3), from: '08:00', to: '08:50' });
    const [all, own] = [await patientSessions(c.owner, c.ana), await patientSessions(c.tere, c.ana)];
    expect(all.items.some((s) => s.id === tomas.id)).toBe(true);
    expect(own.items.some((s) => s.id === tomas.id)).toBe(false);
    expect(all.totals.total - own.totals.total).toBe(1);
    const cross = await t.get(`${W(c.ws.id)}/patients/${other.ana}/sessions`, { token: c.owner.accessToken });
    expect(cross.statusCode).toBe(404);
  });
});
