// The private calendar feed: zoned events whatever the server's zone, initials by default, revocation,
// only the member's own sessions, and who may manage it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { CalendarFeed, Session, SessionConflict } from '@divan/core';
import { underEveryServerZone } from '../../../../../../packages/core/src/time/testing/server-zones';
import { createTestApp, json, type TestApp } from '../../../test/test-app';
import { clinic, nextWeek, W, type Clinic } from '../../../test/session-fixtures';
import { therapist, type Therapist } from '../../../test/workspace-fixtures';
import { initialsOf } from './feed-calendar';

type Write = { session: Session; conflicts: SessionConflict[] };
let t: TestApp;
let c: Clinic;
let mine: Session;
let canceled: Session;
let canary: Session;
let others: Session;
const day = nextWeek(1);
const P = () => `${W(c.ws.id)}/calendar-feed`;
const pathOf = (url: string) => new URL(url).pathname;
const make = async (who: Therapist, body: object) => {
  const res = await t.post(`${W(c.ws.id)}/sessions`, body, { token: who.accessToken });
  if (res.statusCode !== 201) throw new Error(res.body);
  return json<Write>(res).session;
};
const feedOf = async (who: Therapist, body?: object) => {
  const res = await t.post(P(), body ?? {}, { token: who.accessToken });
  if (res.statusCode !== 201) throw new Error(res.body);
  return json<CalendarFeed>(res);
};
/** The feed's text, unfolded (RFC 5545 folds lines at 75 octets). */
const read = async (url: string) => {
  const res = await t.get(pathOf(url));
  return { status: res.statusCode, type: res.headers['content-type'], text: res.body.replace(/\r\n[ \t]/g, '') };
};
const events = (text: string) => text.split('BEGIN:VEVENT').slice(1);

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'feed');
  mine = await make(c.tere, { patientId: c.ana, day, from: '18:00', to: '18:50', locationId: c.roomId });
  canceled = await make(c.tere, { patientId: c.ana, day: nextWeek(2), from: '10:00', to: '10:50' });
  expect(
    (await t.post(`${W(c.ws.id)}/sessions/${canceled.id}/cancel`, { reason: 'patient' }, { token: c.tere.accessToken })).statusCode,
  ).toBe(200);
  canary = await make(c.tere, {
    patientId: c.ana,
    day: nextWeek(3),
    from: '09:30',
    to: '10:15',
    timeZone: 'Atlantic/Canary',
    modality: 'online',
  });
  others = await make(c.tomas, { patientId: c.bruno, day, from: '18:00', to: '18:50' });
}, 60_000);
afterAll(() => t?.close());

describe('the feed’s content', () => {
  let url: string;
  beforeAll(async () => {
    url = (await feedOf(c.tere)).url!;
  });

  underEveryServerZone(() => {
    it('has each session at its local time with its zone (TZID Europe/Madrid 18:00), a VTIMEZONE per zone, canceled ones marked', async () => {
      const feed = await read(url);
      expect([feed.status, feed.type]).toEqual([200, 'text/calendar; charset=utf-8']);
      const [first, second, third] = events(feed.text);
      expect(first).toContain(`UID:${mine.id}@divan`);
      expect(first).toContain(`DTSTART;TZID=Europe/Madrid:${day.replaceAll('-', '')}T180000`);
      expect(first).toContain(`DTEND;TZID=Europe/Madrid:${day.replaceAll('-', '')}T185000`);
      expect(first).toContain('LOCATION:Sala 1');
      expect(first).toContain('STATUS:CONFIRMED');
      expect(second).toContain(`UID:${canceled.id}@divan`);
      expect(second).toContain('STATUS:CANCELLED');
      expect(second).toContain('SUMMARY:Cancelada: Sesión · A. P.');
      expect(third).toContain(`DTSTART;TZID=Atlantic/Canary:${canary.day.replaceAll('-', '')}T093000`);
      expect(third).toContain('LOCATION:Online (videollamada)');
      expect(feed.text).toMatch(/BEGIN:VTIMEZONE\r\nTZID:Europe\/Madrid/);
      expect(feed.text).toMatch(/BEGIN:VTIMEZONE\r\nTZID:Atlantic\/Canary/);
    });
  });

  it('shows patients as initials until the therapist asks for full names', async () => {
    expect(events((await read(url)).text)[0]).toContain('SUMMARY:Sesión · A. P.');
    expect((await read(url)).text).not.toContain('Ana');
    const res = await t.patch(P(), { showFullNames: true }, { token: c.tere.accessToken });
    expect(json(res)).toMatchObject({ active: true, showFullNames: true });
    expect(json(res)).not.toHaveProperty('url');
    expect(events((await read(url)).text)[0]).toContain('SUMMARY:Sesión · Ana Prueba');
    await t.patch(P(), { showFullNames: false }, { token: c.tere.accessToken });
    expect(initialsOf('  Ángela  de la Peña ')).toBe('Á. D. L. P.');
  });

  it('holds only the member’s own sessions, even for an administrator', async () => {
    const text = (await read(url)).text;
    expect(events(text)).toHaveLength(3);
    expect(text).not.toContain(others.id);
    const admin = (await read((await feedOf(c.owner)).url!)).text;
    expect(events(admin)).toHaveLength(0);
    const tomas = (await read((await feedOf(c.tomas)).url!)).text;
    expect(events(tomas).map((e) => e.match(/UID:(.*)@divan/)![1])).toEqual([others.id]);
  });
});

describe('revoking and regenerating', () => {
  it('a revoked URL is a 404; a regenerated one replaces the old; the token is never kept in clear', async () => {
    const first = await feedOf(c.rosa);
    expect((await read(first.url!)).status).toBe(200);
    const second = await feedOf(c.rosa);
    expect(second.url).not.toBe(first.url);
    expect((await read(first.url!)).status).toBe(404);
    expect((await read(second.url!)).status).toBe(200);
    const token = pathOf(second.url!).split('/').pop()!.replace('.ics', '');
    expect(JSON.stringify(await t.rows(sql`select * from calendar_feeds`))).not.toContain(token);
    expect(json(await t.get(P(), { token: c.rosa.accessToken }))).toMatchObject({ active: true, showFullNames: false });
    expect((await t.get(P(), { token: c.rosa.accessToken })).json()).not.toHaveProperty('url');
    expect((await t.del(P(), { token: c.rosa.accessToken })).statusCode).toBe(204);
    const gone = await read(second.url!);
    expect([gone.status, JSON.parse(gone.text).code]).toEqual([404, 'not_found']);
    expect(json(await t.get(P(), { token: c.rosa.accessToken }))).toMatchObject({ active: false });
    expect((await t.get('/api/v1/calendar-feeds/nada.ics')).statusCode).toBe(404);
  });

  it('stops with the membership, and only members manage their own feed', async () => {
    const res = await t.get(P());
    expect(res.statusCode).toBe(401);
    const outsider = await therapist(t, 'fuera@feed.test', 'Fuera');
    expect([403, 404]).toContain((await t.post(P(), {}, { token: outsider.accessToken })).statusCode);
    const url = (await feedOf(c.tomas)).url!;
    const seats = json<{ id: string; userId: string }[]>(await t.get(`${W(c.ws.id)}/members`, { token: c.owner.accessToken }));
    const seat = seats.find((s) => s.userId === c.tomas.userId)!;
    expect((await t.del(`${W(c.ws.id)}/members/${seat.id}`, { token: c.owner.accessToken })).statusCode).toBe(204);
    expect((await read(url)).status).toBe(404);
  });
});

describe('the public read is rate-limited per IP, like the other public routes', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({
      rateLimit: { perIpPerMinute: 3, perEmailPer15Min: 100, uploadsPerMinute: 100, exportsPerMinute: 100 },
    });
  });
  afterAll(() => limited?.close());

  it('answers 429 past the budget, a guessed token or not', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await limited.get(`/api/v1/calendar-feeds/${'x'.repeat(43)}.ics`)).statusCode);
    expect(statuses).toEqual([404, 404, 404, 429]);
  });
});
