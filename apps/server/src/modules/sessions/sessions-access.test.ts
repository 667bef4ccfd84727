import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_LOCATIONS_PER_WORKSPACE,
  decodeSessionGrid,
  toInstant,
  type WorkspaceLocation,
  type Session,
  type SessionConflict,
  type SessionGrid,
} from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { clinic, nextWeek, W, type Clinic } from '../../test/session-fixtures';
import { addMember, createWorkspace, type Therapist } from '../../test/workspace-fixtures';

type Write = { session: Session; conflicts: SessionConflict[] };
let t: TestApp;
let c: Clinic;
let other: Clinic;
let tereSession: Session;
let tomasSession: Session;
const day = nextWeek();
const range = `from=${encodeURIComponent(toInstant(day, '00:00', 'Europe/Madrid').toISOString())}&to=${encodeURIComponent(toInstant(nextWeek(1), '00:00', 'Europe/Madrid').toISOString())}`;
/** The range read, checked against the calendar grid's: the same sessions for the same reader and filters. */
const list = async (who: Therapist, query = '', ws = c.ws.id) => {
  const items = json<{ items: Session[] }>(await t.get(`${W(ws)}/sessions?${range}${query}`, { token: who.accessToken })).items;
  const grid = await t.get(`${W(ws)}/sessions/grid?${range}${query}`, { token: who.accessToken });
  expect(grid.statusCode, grid.body).toBe(200);
  expect(decodeSessionGrid(json<SessionGrid>(grid)).map((g) => [g.id, g.therapist.id])).toEqual(items.map((s) => [s.id, s.therapist.id]));
  return items;
};
const codeOf = (res: { json(): unknown }) => (res.json() as { code: string }).code;

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'permisos');
  other = await clinic(t, 'otra');
  const make = async (who: Therapist, body: object) => {
    const res = await t.post(`${W(c.ws.id)}/sessions`, body, { token: who.accessToken });
    if (res.statusCode !== 201) throw new Error(res.body);
    return json<Write>(res).session;
  };
  tereSession = await make(c.tere, { patientId: c.ana, day, from: '10:00', to: '10:50' });
  tomasSession = await make(c.rosa, {
    patientId: c.bruno,
    therapistId: c.tomas.userId,
    day,
    from: '12:00',
    to: '12:50',
    locationId: c.roomId,
  });
}, 60_000);
afterAll(() => t?.close());

describe('a clinic Terapeuta: only their own sessions', () => {
  it('lists only theirs, even when asking for another therapist’s', async () => {
    expect((await list(c.tere)).map((s) => s.id)).toEqual([tereSession.id]);
    expect(await list(c.tere, `&therapistId=${c.tomas.userId}`)).toEqual([]);
  });

  it('gets 404 for another’s session, the same as for one that does not exist', async () => {
    const res = await t.get(`${W(c.ws.id)}/sessions/${tomasSession.id}`, { token: c.tere.accessToken });
    const ghost = await t.get(`${W(c.ws.id)}/sessions/${crypto.randomUUID()}`, { token: c.tere.accessToken });
    expect([res.statusCode, codeOf(res), res.json()]).toEqual([404, 'therapy_session_not_found', ghost.json()]);
    expect((res.json() as { message: string }).message).toBe('Sesión no disponible o borrada');
    for (const [path, body] of [
      ['', { invoiced: true }],
      ['/cancel', { reason: 'therapist' }],
      ['/complete', undefined],
      ['/payment', { paymentType: 'cash' }],
    ] as const) {
      const write =
        path === ''
          ? await t.patch(`${W(c.ws.id)}/sessions/${tomasSession.id}`, body, { token: c.tere.accessToken })
          : await t.post(`${W(c.ws.id)}/sessions/${tomasSession.id}${path}`, body, { token: c.tere.accessToken });
      expect([path, write.statusCode]).toEqual([path, 404]);
    }
  });

  it('cannot book a session for another therapist, nor hand theirs over', async () => {
    const res = await t.post(
      `${W(c.ws.id)}/sessions`,
      { patientId: c.ana, therapistId: c.tomas.userId, day, from: '16:00', to: '16:50' },
      { token: c.tere.accessToken },
    );
    expect([res.statusCode, codeOf(res)]).toEqual([403, 'access_denied']);
    const handed = await t.patch(
      `${W(c.ws.id)}/sessions/${tereSession.id}`,
      { therapistId: c.tomas.userId },
      { token: c.tere.accessToken },
    );
    expect([handed.statusCode, codeOf(handed)]).toEqual([403, 'access_denied']);
  });

  it('cannot book for a patient not assigned to them (404, as the patients module answers)', async () => {
    const res = await t.post(
      `${W(c.ws.id)}/sessions`,
      { patientId: c.bruno, day, from: '16:00', to: '16:50' },
      { token: c.tere.accessToken },
    );
    expect([res.statusCode, codeOf(res)]).toEqual([404, 'patient_not_found']);
  });

  it('reads the clinical link of their own sessions', async () => {
    const mine = json<Session>(await t.get(`${W(c.ws.id)}/sessions/${tereSession.id}`, { token: c.tere.accessToken }));
    expect(Object.keys(mine)).toContain('noteId');
  });
});

describe('Recepción: every session, times, patient, therapist, status and payment, never the clinical link', () => {
  it('lists all sessions, filters by therapist, patient and status', async () => {
    expect((await list(c.rosa)).map((s) => s.id)).toEqual([tereSession.id, tomasSession.id]);
    expect((await list(c.rosa, `&therapistId=${c.tomas.userId}`)).map((s) => s.id)).toEqual([tomasSession.id]);
    expect((await list(c.rosa, `&patientId=${c.ana}`)).map((s) => s.id)).toEqual([tereSession.id]);
    expect(await list(c.rosa, '&status=completed')).toEqual([]);
  });

  it('reads the schedule and the payment fields, and no clinical field', async () => {
    const [s] = await list(c.rosa, `&therapistId=${c.tere.userId}`);
    expect(s).toMatchObject({
      day,
      from: '10:00',
      to: '10:50',
      patient: { id: c.ana, name: 'Ana Prueba' },
      therapist: { name: 'Tere' },
      status: 'pending',
      paymentStatus: 'pending',
      price: 6000,
    });
    expect(Object.keys(s!)).not.toContain('noteId');
    const one = json<Session>(await t.get(`${W(c.ws.id)}/sessions/${tereSession.id}`, { token: c.rosa.accessToken }));
    expect(Object.keys(one)).not.toContain('noteId');
  });

  it('books, moves and marks paid any therapist’s session', async () => {
    const moved = await t.patch(
      `${W(c.ws.id)}/sessions/${tereSession.id}`,
      { day, from: '10:15', to: '11:05' },
      { token: c.rosa.accessToken },
    );
    expect([moved.statusCode, json<Write>(moved).session.from]).toEqual([200, '10:15']);
    const paid = await t.post(
      `${W(c.ws.id)}/sessions/${tomasSession.id}/payment`,
      { paymentType: 'transfer' },
      { token: c.rosa.accessToken },
    );
    expect([paid.statusCode, json<Session>(paid).paymentStatus]).toEqual([200, 'paid']);
  });
});

describe('a team’s Terapeuta: every session of the workspace', () => {
  it('reads and edits a colleague’s session', async () => {
    const team = await createWorkspace(t, c.owner, 'Equipo permisos', 'team');
    await t.app.services.workspaces.setPlan(team.id, { id: 'team', seats: 10 });
    await addMember(t, c.owner, team.id, c.tere, [team.roles.find((r) => r.name === 'Terapeuta')!.id]);
    const patientId = json<{ id: string }>(
      await t.post(`${W(team.id)}/patients`, { firstName: 'Carla' }, { token: c.owner.accessToken }),
    ).id;
    const s = json<Write>(
      await t.post(`${W(team.id)}/sessions`, { patientId, day, from: '10:00', to: '10:50' }, { token: c.owner.accessToken }),
    ).session;
    expect((await list(c.tere, '', team.id)).map((x) => x.id)).toEqual([s.id]);
    const res = await t.post(`${W(team.id)}/sessions/${s.id}/complete`, undefined, { token: c.tere.accessToken });
    expect([res.statusCode, json<Session>(res).status]).toEqual([200, 'completed']);
  });
});

describe('the calendar range read is bounded', () => {
  it('refuses an inverted range and one wider than 42 days, in Spanish; reads this week by default', async () => {
    const from = toInstant(day, '00:00', 'Europe/Madrid');
    const q = (a: Date, b: Date) => `from=${encodeURIComponent(a.toISOString())}&to=${encodeURIComponent(b.toISOString())}`;
    const inverted = await t.get(`${W(c.ws.id)}/sessions?${q(from, new Date(from.getTime() - 1))}`, { token: c.owner.accessToken });
    expect([inverted.statusCode, (inverted.json() as { message: string }).message]).toEqual([
      400,
      'El inicio del intervalo debe ser anterior a su fin',
    ]);
    const wide = await t.get(`${W(c.ws.id)}/sessions?${q(from, new Date(from.getTime() + 43 * 86_400_000))}`, {
      token: c.owner.accessToken,
    });
    expect([wide.statusCode, (wide.json() as { message: string }).message]).toEqual([400, 'El intervalo no puede superar 42 días']);
    const wideGrid = await t.get(`${W(c.ws.id)}/sessions/grid?${q(from, new Date(from.getTime() + 43 * 86_400_000))}`, {
      token: c.owner.accessToken,
    });
    expect([wideGrid.statusCode, (wideGrid.json() as { message: string }).message]).toEqual([400, 'El intervalo no puede superar 42 días']);
    const week = await t.get(`${W(c.ws.id)}/sessions`, { token: c.owner.accessToken });
    expect(week.statusCode).toBe(200);
    // A week ahead is next week: not in this one.
    expect(json<{ items: Session[] }>(week).items.map((s) => s.id)).not.toContain(tereSession.id);
  });
});

describe('across workspaces', () => {
  it('a session or a location of another workspace is 404 through one’s own', async () => {
    const s = await t.get(`${W(other.ws.id)}/sessions/${tereSession.id}`, { token: other.owner.accessToken });
    expect([s.statusCode, codeOf(s)]).toEqual([404, 'therapy_session_not_found']);
    const p = await t.patch(`${W(other.ws.id)}/sessions/${tereSession.id}`, { invoiced: true }, { token: other.owner.accessToken });
    expect(p.statusCode).toBe(404);
    const l = await t.patch(`${W(other.ws.id)}/locations/${c.roomId}`, { name: 'Robada' }, { token: other.owner.accessToken });
    expect([l.statusCode, codeOf(l)]).toEqual([404, 'location_not_found']);
    expect((await t.del(`${W(other.ws.id)}/locations/${c.roomId}`, { token: other.owner.accessToken })).statusCode).toBe(404);
    expect((await list(other.owner, '', other.ws.id)).map((x) => x.id)).not.toContain(tereSession.id);
    const ws = await t.get(`${W(c.ws.id)}/sessions/${tereSession.id}`, { token: other.owner.accessToken });
    expect([ws.statusCode, codeOf(ws)]).toEqual([404, 'workspace_not_found']);
  });

  it('another workspace’s patient cannot be booked', async () => {
    const res = await t.post(
      `${W(c.ws.id)}/sessions`,
      { patientId: other.ana, therapistId: c.tere.userId, day, from: '18:00', to: '18:50' },
      { token: c.owner.accessToken },
    );
    expect([res.statusCode, codeOf(res)]).toEqual([404, 'patient_not_found']);
  });
});

describe('series: the same checks as one session', () => {
  const recurrence = { frequency: 'weekly', end: { count: 3 } };
  it('a clinic Terapeuta creates series of their own only, and never reaches another’s through a scope', async () => {
    const forTomas = await t.post(
      `${W(c.ws.id)}/sessions`,
      { patientId: c.ana, therapistId: c.tomas.userId, day: nextWeek(3), from: '16:00', to: '16:50', recurrence },
      { token: c.tere.accessToken },
    );
    expect([forTomas.statusCode, codeOf(forTomas)]).toEqual([403, 'access_denied']);
    const notHers = await t.post(
      `${W(c.ws.id)}/sessions`,
      { patientId: c.bruno, day: nextWeek(3), from: '16:00', to: '16:50', recurrence },
      { token: c.tere.accessToken },
    );
    expect([notHers.statusCode, codeOf(notHers)]).toEqual([404, 'patient_not_found']);
    const tomasSeries = json<Write>(
      await t.post(
        `${W(c.ws.id)}/sessions`,
        { patientId: c.bruno, therapistId: c.tomas.userId, day: nextWeek(3), from: '12:00', to: '12:50', recurrence },
        { token: c.rosa.accessToken },
      ),
    ).session;
    for (const scope of ['following', 'all'] as const) {
      const edit = await t.patch(`${W(c.ws.id)}/sessions/${tomasSeries.id}`, { price: 1, scope }, { token: c.tere.accessToken });
      const cancel = await t.post(
        `${W(c.ws.id)}/sessions/${tomasSeries.id}/cancel`,
        { reason: 'patient', scope },
        { token: c.tere.accessToken },
      );
      expect([scope, edit.statusCode, codeOf(edit), cancel.statusCode, codeOf(cancel)]).toEqual([
        scope,
        404,
        'therapy_session_not_found',
        404,
        'therapy_session_not_found',
      ]);
    }
  });

  it('Recepción books and edits any therapist’s series, and reads no clinical link in it', async () => {
    const made = await t.post(
      `${W(c.ws.id)}/sessions`,
      { patientId: c.ana, therapistId: c.tere.userId, day: nextWeek(4), from: '09:00', to: '09:50', recurrence },
      { token: c.rosa.accessToken },
    );
    expect(made.statusCode).toBe(201);
    const first = json<Write>(made).session;
    expect([first.series?.index, Object.keys(first)]).toEqual([0, expect.not.arrayContaining(['noteId', 'noteMissing'])]);
    const edit = await t.patch(
      `${W(c.ws.id)}/sessions/${first.id}`,
      { day: first.day, from: '09:30', to: '10:20', scope: 'all' },
      { token: c.rosa.accessToken },
    );
    expect([edit.statusCode, (edit.json() as { updated: number }).updated]).toEqual([200, 3]);
  });

  it('another workspace reaches no series: create, edit and cancel with a scope are 404', async () => {
    const s = json<Write>(
      await t.post(
        `${W(c.ws.id)}/sessions`,
        { patientId: c.ana, therapistId: c.tere.userId, day: nextWeek(5), from: '08:00', to: '08:50', recurrence },
        { token: c.owner.accessToken },
      ),
    ).session;
    const edit = await t.patch(`${W(other.ws.id)}/sessions/${s.id}`, { price: 1, scope: 'all' }, { token: other.owner.accessToken });
    const cancel = await t.post(
      `${W(other.ws.id)}/sessions/${s.id}/cancel`,
      { reason: 'patient', scope: 'all' },
      { token: other.owner.accessToken },
    );
    const create = await t.post(
      `${W(other.ws.id)}/sessions`,
      { patientId: c.ana, day: nextWeek(5), from: '08:00', to: '08:50', recurrence },
      { token: other.owner.accessToken },
    );
    expect([edit.statusCode, cancel.statusCode, create.statusCode, codeOf(create)]).toEqual([404, 404, 404, 'patient_not_found']);
    expect(json<Session>(await t.get(`${W(c.ws.id)}/sessions/${s.id}`, { token: c.owner.accessToken })).status).toBe('pending');
  });
});

describe('locations', () => {
  it('are read by those who read sessions and managed by those who edit the workspace profile', async () => {
    const names = async (who: Therapist) =>
      json<WorkspaceLocation[]>(await t.get(`${W(c.ws.id)}/locations`, { token: who.accessToken })).map((l) => l.name);
    expect(await names(c.rosa)).toEqual(['Sala 1']);
    expect(await names(c.tere)).toEqual(['Sala 1']);
    const refused = await t.post(`${W(c.ws.id)}/locations`, { name: 'Sala 2' }, { token: c.rosa.accessToken });
    expect([refused.statusCode, codeOf(refused)]).toEqual([403, 'access_denied']);
    const made = await t.post(
      `${W(c.ws.id)}/locations`,
      { name: ' Despacho ', kind: 'address', address: 'Calle Mayor 1, Madrid' },
      { token: c.owner.accessToken },
    );
    expect(json<WorkspaceLocation>(made)).toMatchObject({ name: 'Despacho', kind: 'address', address: 'Calle Mayor 1, Madrid' });
    expect((await t.post(`${W(c.ws.id)}/locations`, { name: '' }, { token: c.owner.accessToken })).statusCode).toBe(400);
  });

  it('stop at MAX_LOCATIONS_PER_WORKSPACE, with a Spanish refusal', async () => {
    const ws = await createWorkspace(t, c.owner, 'Muchas salas', 'clinic');
    for (let i = 0; i < MAX_LOCATIONS_PER_WORKSPACE; i++)
      expect((await t.post(`${W(ws.id)}/locations`, { name: `Sala ${i}` }, { token: c.owner.accessToken })).statusCode).toBe(201);
    const res = await t.post(`${W(ws.id)}/locations`, { name: 'Una más' }, { token: c.owner.accessToken });
    expect([res.statusCode, res.json()]).toEqual([
      409,
      { code: 'location_limit_reached', message: 'Has alcanzado el número máximo de ubicaciones.' },
    ]);
  });

  it('deleting one leaves its sessions without a location', async () => {
    const id = json<WorkspaceLocation>(
      await t.post(`${W(c.ws.id)}/locations`, { name: 'Sala temporal' }, { token: c.owner.accessToken }),
    ).id;
    const s = json<Write>(
      await t.post(
        `${W(c.ws.id)}/sessions`,
        { patientId: c.ana, therapistId: c.tere.userId, day: nextWeek(2), from: '09:00', to: '09:50', locationId: id },
        { token: c.owner.accessToken },
      ),
    ).session;
    expect(s.location).toEqual({ id, name: 'Sala temporal' });
    expect((await t.del(`${W(c.ws.id)}/locations/${id}`, { token: c.owner.accessToken })).statusCode).toBe(204);
    expect(json<Session>(await t.get(`${W(c.ws.id)}/sessions/${s.id}`, { token: c.owner.accessToken })).location).toBeNull();
  });
});
