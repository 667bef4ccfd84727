// The calendar's range read is served from a per-process cache of its JSON bytes (session-list-cache.ts).
// These tests prime it, change what a session shows through every write path, and expect the change at
// once — in the same process, and in a second process sharing the database and Redis.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeSessionGrid,
  defineAbility,
  sessionGridResponse,
  sessionResponse,
  shiftDay,
  toInstant,
  type GridSession,
  type Session,
  type SessionGrid,
  type Workspace,
} from '@divan/core';
import { createSecondApp, createTestApp, json, type TestApp } from '../../test/test-app';
import { clinic, nextWeek, W, type Clinic } from '../../test/session-fixtures';
import { therapist, type Therapist } from '../../test/workspace-fixtures';
import type { Caller } from '../../platform/auth/caller';
import { acceptsGzip, sessionListCache, SessionListReader } from './session-list.cache';
import type { SessionsService } from './sessions.service';

let t: TestApp;
let c: Clinic;
const day = nextWeek();
const week = `from=${toInstant(day, '00:00', 'Europe/Madrid').toISOString()}&to=${toInstant(shiftDay(day, 7), '00:00', 'Europe/Madrid').toISOString()}`;
const sessionsOf = (app: Pick<TestApp, 'get'>, ws: string, who: Therapist) => async () => {
  const res = await app.get(`${W(ws)}/sessions?${week}`, { token: who.accessToken });
  expect(res.statusCode, res.body).toBe(200);
  const items = json<{ items: Session[] }>(res).items;
  // Written by the compiled contract: each item is what the Zod contract accepts, unchanged by it.
  for (const item of items) expect(sessionResponse.parse(item)).toEqual(item);
  // The grid's columns (GET …/sessions/grid) are the same read: the same sessions in the same order, each
  // as the full one shows it, through the same cache.
  const grid = await app.get(`${W(ws)}/sessions/grid?${week}`, { token: who.accessToken });
  expect(grid.statusCode, grid.body).toBe(200);
  expect(sessionGridResponse.parse(json(grid))).toEqual(json(grid));
  expect(decodeSessionGrid(json<SessionGrid>(grid))).toEqual(items.map(asGridSession));
  return items;
};
const asGridSession = (s: Session): GridSession => ({
  id: s.id,
  day: s.day,
  from: s.from,
  to: s.to,
  status: s.status,
  modality: s.modality,
  patient: { name: s.patient.name },
  therapist: s.therapist,
  location: s.location,
  series: s.series && { id: s.series.id, description: s.series.description },
  noteMissing: s.noteMissing ?? false,
});
let read: (who?: Therapist) => Promise<Session[]>;
const one = async (id: string, who?: Therapist) => (await read(who)).find((s) => s.id === id);
const ok = (res: { statusCode: number; body: string }, code = 200) => expect(res.statusCode, res.body).toBe(code);
const book = async (body: Record<string, unknown>) => {
  const res = await t.post(
    `${W(c.ws.id)}/sessions`,
    { patientId: c.ana, therapistId: c.tere.userId, day, ...body },
    { token: c.owner.accessToken },
  );
  ok(res, 201);
  return json<{ session: Session }>(res).session;
};

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'cache');
  read = (who = c.owner) => sessionsOf(t, c.ws.id, who)();
}, 60_000);
afterAll(() => t?.close());

describe('the cached calendar read shows every change at once', () => {
  it('answers a repeated read with the same bytes, gzipped for a client that takes it', async () => {
    for (let i = 0; i < 12; i++)
      await book({ from: `${String(8 + i).padStart(2, '0')}:00`, to: `${String(8 + i).padStart(2, '0')}:45`, day: shiftDay(day, 1) });
    const first = await t.get(`${W(c.ws.id)}/sessions?${week}`, { token: c.owner.accessToken });
    const again = await t.get(`${W(c.ws.id)}/sessions?${week}`, { token: c.owner.accessToken });
    expect(again.body).toBe(first.body);
    expect(first.headers['content-encoding']).toBeUndefined();
    const zipped = await t.get(`${W(c.ws.id)}/sessions?${week}`, {
      token: c.owner.accessToken,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect([zipped.headers['content-encoding'], zipped.headers.vary]).toEqual(['gzip', 'accept-encoding']);
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(first.body);
    expect(json<{ items: Session[] }>(first).items).toHaveLength(12);
  });

  it('after create, move, cancel, complete and payment', async () => {
    const s = await book({ from: '10:00', to: '10:50' });
    expect((await one(s.id))?.from).toBe('10:00');
    ok(await t.patch(`${W(c.ws.id)}/sessions/${s.id}`, { day, from: '11:00', to: '11:50' }, { token: c.owner.accessToken }));
    expect((await one(s.id))?.from).toBe('11:00');
    ok(await t.post(`${W(c.ws.id)}/sessions/${s.id}/payment`, { paymentType: 'card' }, { token: c.owner.accessToken }));
    expect((await one(s.id))?.paymentStatus).toBe('paid');
    ok(await t.post(`${W(c.ws.id)}/sessions/${s.id}/complete`, undefined, { token: c.owner.accessToken }));
    expect((await one(s.id))?.status).toBe('completed');
    const other = await book({ from: '12:00', to: '12:50' });
    expect((await one(other.id))?.status).toBe('pending');
    ok(await t.post(`${W(c.ws.id)}/sessions/${other.id}/cancel`, { reason: 'patient' }, { token: c.owner.accessToken }));
    expect((await one(other.id))?.status).toBe('canceled');
  });

  it('after a series is cancelled from one occurrence on', async () => {
    const res = await t.post(
      `${W(c.ws.id)}/sessions`,
      {
        patientId: c.ana,
        therapistId: c.tere.userId,
        day,
        from: '16:00',
        to: '16:50',
        recurrence: { frequency: 'weekly', end: { count: 3 } },
      },
      { token: c.owner.accessToken },
    );
    ok(res, 201);
    const first = json<{ session: Session }>(res).session;
    expect((await one(first.id))?.status).toBe('pending');
    ok(
      await t.post(`${W(c.ws.id)}/sessions/${first.id}/cancel`, { reason: 'patient', scope: 'following' }, { token: c.owner.accessToken }),
    );
    expect((await one(first.id))?.status).toBe('canceled');
  });

  it("after the patient's and the therapist's names change", async () => {
    const s = await book({ from: '13:00', to: '13:50' });
    expect((await one(s.id))?.patient.name).toBe('Ana Prueba');
    ok(await t.patch(`${W(c.ws.id)}/patients/${c.ana}`, { lastName: 'Prueba Ruiz' }, { token: c.owner.accessToken }));
    expect((await one(s.id))?.patient.name).toBe('Ana Prueba Ruiz');
    expect((await one(s.id))?.therapist.name).toBe('Tere');
    ok(await t.patch('/api/v1/me', { firstName: 'Teresa' }, { token: c.tere.accessToken }));
    expect((await one(s.id))?.therapist.name).toBe('Teresa');
  });

  it("after the session's note is written and deleted, and its room renamed", async () => {
    const s = await book({ from: '14:00', to: '14:50', day: shiftDay(day, 2), locationId: c.roomId });
    ok(await t.post(`${W(c.ws.id)}/sessions/${s.id}/complete`, undefined, { token: c.owner.accessToken }));
    expect(await one(s.id)).toMatchObject({ noteMissing: true, noteId: null, location: { name: 'Sala 1' } });
    const note = await t.post(
      `${W(c.ws.id)}/sessions/${s.id}/note`,
      { title: 'Nota', body: '<p>Bien.</p>', private: false },
      { token: c.owner.accessToken },
    );
    ok(note, 201);
    const entryId = json<{ id: string }>(note).id;
    expect(await one(s.id)).toMatchObject({ noteMissing: false, noteId: entryId });
    ok(await t.del(`${W(c.ws.id)}/patients/${c.ana}/history/${entryId}`, { token: c.owner.accessToken }), 204);
    expect(await one(s.id)).toMatchObject({ noteMissing: true, noteId: null });

    ok(await t.patch(`${W(c.ws.id)}/locations/${c.roomId}`, { name: 'Sala Azul' }, { token: c.owner.accessToken }));
    expect((await one(s.id))?.location?.name).toBe('Sala Azul');
  });

  it('keeps apart what different readers may see', async () => {
    const s = await book({ from: '15:00', to: '15:50', therapistId: c.tomas.userId, patientId: c.bruno });
    expect((await read(c.owner)).some((x) => x.id === s.id)).toBe(true);
    // Tere reads only her own sessions; Recepción reads them all, never the note fields.
    expect((await read(c.tere)).some((x) => x.id === s.id)).toBe(false);
    const forRosa = (await read(c.rosa)).find((x) => x.id === s.id);
    expect(forRosa).toBeDefined();
    expect(forRosa).not.toHaveProperty('noteMissing');
  });
});

describe('Accept-Encoding', () => {
  it('takes gzip unless refused with q=0', () => {
    expect([
      acceptsGzip('gzip, deflate, br'),
      acceptsGzip('br;q=1.0, gzip;q=0.8'),
      acceptsGzip('*'),
      acceptsGzip(undefined),
      acceptsGzip('gzip;q=0'),
      acceptsGzip('identity'),
    ]).toEqual([true, true, true, false, false, false]);
  });
});

const redisUrl = process.env.REDIS_URL;
describe.skipIf(!redisUrl || !process.env.TEST_DATABASE_URL)('across two server processes sharing PostgreSQL and Redis', () => {
  let b: TestApp | undefined;
  afterAll(() => b?.close());

  it("a session booked through one process shows in the other's cached week", async () => {
    const a = await createTestApp({ redisUrl });
    try {
      b = await createSecondApp(a, { redisUrl });
      const elena = await therapist(a, 'elena@calendario.test', 'Elena');
      const own = json<Workspace[]>(await a.get('/api/v1/workspaces', { token: elena.accessToken }))[0]!;
      const patient = await a.post(`${W(own.id)}/patients`, { firstName: 'Nuria', lastName: 'Vega' }, { token: elena.accessToken });
      ok(patient, 201);
      const onB = async () => (await sessionsOf(b!, own.id, elena)()).length;
      expect(await onB()).toBe(0); // B now keeps this week
      ok(
        await a.post(
          `${W(own.id)}/sessions`,
          { patientId: json<{ id: string }>(patient).id, day, from: '10:00', to: '10:50' },
          { token: elena.accessToken },
        ),
        201,
      );
      await expect.poll(onB, { timeout: 2000, interval: 20 }).toBe(1);
    } finally {
      await b?.close();
      b = undefined;
      await a.close();
    }
  });
});

describe('the reader', () => {
  const ws = '00000000-0000-4000-8000-000000000001';
  const userId = '00000000-0000-4000-8000-000000000002';
  const caller = {
    userId,
    member: { workspaceId: ws, ability: defineAbility({ userId, isAdmin: true, permissions: [] }) },
  } as unknown as Caller;
  const setup = () => {
    let now = 0;
    let calls = 0;
    let release: () => void = () => undefined;
    const sessions = {
      list: async () => {
        calls++;
        await new Promise<void>((r) => (release = r));
        return { items: [] };
      },
    } as unknown as SessionsService;
    const reader = new SessionListReader(
      sessions,
      sessionListCache(10, 1_000, () => now),
    );
    return { reader, calls: () => calls, release: () => release(), tick: (ms: number) => (now += ms) };
  };
  const q = { from: '2026-11-23T00:00:00.000Z', to: '2026-11-30T00:00:00.000Z' };

  it('makes one read for requests that miss together', async () => {
    const r = setup();
    const reads = Array.from({ length: 5 }, () => r.reader.read(caller, q, true));
    await Promise.resolve();
    r.release();
    await Promise.all(reads);
    expect(r.calls()).toBe(1);
    await r.reader.read(caller, q, true);
    expect(r.calls()).toBe(1);
  });

  it('serves an old read while it reads it again in the background, once', async () => {
    const r = setup();
    const first = r.reader.read(caller, q, true);
    await Promise.resolve();
    r.release();
    await first;
    r.tick(1_001);
    // Served at once from the cache (the background read has not finished), and only one background read.
    await r.reader.read(caller, q, true);
    await r.reader.read(caller, q, true);
    expect(r.calls()).toBe(2);
    r.release();
  });
});
