import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BookingService, type PublicSlots, type Workspace } from '@divan/core';
import { startFakeGoogle, type FakeGoogle } from '../../test/fake-google-calendar';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { until } from '../../test/until';
import { addMember, therapist, type Therapist } from '../../test/workspace-fixtures';
import { at, bookingKit } from '../booking/booking-flow.testkit';
import { connect, G, nextMonday, settled } from './google-calendar.testkit';

const WORK = 'trabajo@group.calendar.google.com';
let fake: FakeGoogle;
let t: TestApp;
let olga: Therapist;
let ws: Workspace;
let service: BookingService;
const monday = nextMonday();
/** The `google-busy-changed` frames sent to the sockets, by user. */
const busyFrames: { userId: string; data: unknown }[] = [];

const slotsOf = async () => {
  const res = await t.get(`/api/v1/public/reservations/${ws.id}/${olga.userId}/${service.id}/slots?month=${monday.slice(0, 7)}`);
  expect(res.statusCode, res.body).toBe(200);
  return (json<PublicSlots>(res).days.find((d) => d.day === monday)?.slots ?? []).map((s) => s.therapist.from);
};
const blocks = () => t.rows<{ event_id: string }>(sql`select event_id from google_busy_blocks order by event_id`);
const channel = () => fake.store.liveChannels(WORK)[0]!;
const pushOnce = (n = 1) => {
  const p = fake.push(channel(), n);
  return t.post(p.path, undefined, { headers: p.headers });
};

beforeAll(async () => {
  fake = await startFakeGoogle();
  t = await createTestApp({ googleCalendar: fake.config() });
  t.app.services.realtime.onUserEvent((userId, event, data) => void (event === 'google-busy-changed' && busyFrames.push({ userId, data })));
  const kit = await bookingKit(t, 'gbusy');
  [olga, ws] = [kit.owner, kit.ws];
  service = await kit.createService();
  expect((await connect(t, fake, olga, ws.id)).res.statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('Google → Diván: busy times', () => {
  it('choosing a calendar opens its push channel and reads it whole', async () => {
    fake.store.addBusyEvent(WORK, new Date(at(monday, '09:00')), new Date(at(monday, '09:50')));
    const res = await t.put(`${G(ws.id)}/settings`, { busyCalendarIds: [WORK] }, { token: olga.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    await settled(t);
    expect(fake.store.liveChannels(WORK)).toHaveLength(1);
    expect(channel().address).toBe('http://divan.test/api/v1/google-calendar/notifications');
    expect(await blocks()).toHaveLength(1);
    expect(await slotsOf()).toEqual(['10:00', '11:00', '12:00', '13:00']);
  });

  it('a busy event added in Google takes that hour off the public booking page after a push', async () => {
    fake.store.addBusyEvent(WORK, new Date(at(monday, '10:15')), new Date(at(monday, '10:45')));
    // Free time (transparent) and the Diván calendar's own events block nothing.
    fake.store.addBusyEvent(WORK, new Date(at(monday, '13:00')), new Date(at(monday, '13:50')), { transparent: true });
    busyFrames.length = 0;
    expect((await pushOnce()).statusCode).toBe(200);
    expect(await until(slotsOf, (s) => !s.includes('10:00'))).toEqual(['11:00', '12:00', '13:00']);
    // The therapist's open calendar hears it at once (their sockets only), and refetches the grey blocks.
    expect(
      await until(
        async () => busyFrames.length,
        (n) => n > 0,
      ),
    ).toBe(1);
    expect(busyFrames).toEqual([{ userId: olga.userId, data: { workspaceId: ws.id } }]);
  });

  it('a sync that finds nothing new tells no one', async () => {
    await settled(t);
    busyFrames.length = 0;
    const lists = fake.store.calls.get('events.list') ?? 0;
    await t.app.services.googleCalendar.channels.poll();
    await settled(t);
    expect(fake.store.calls.get('events.list')).toBeGreaterThan(lists);
    expect(busyFrames).toEqual([]);
  });

  it('with pushes off, the polling fallback does the same', async () => {
    const id = fake.store.addBusyEvent(WORK, new Date(at(monday, '11:00')), new Date(at(monday, '12:00')));
    await t.app.services.googleCalendar.channels.poll();
    expect(await until(slotsOf, (s) => !s.includes('11:00'))).toEqual(['13:00']);
    // An event removed in Google gives the time back.
    fake.store.removeEvent(WORK, id);
    await t.app.services.googleCalendar.channels.poll();
    expect(await until(slotsOf, (s) => s.includes('11:00'))).toEqual(['11:00', '12:00', '13:00']);
  });

  it('100 replayed pushes run few syncs and a forced 410 resyncs whole, without a duplicate block', async () => {
    await settled(t);
    const listsBefore = fake.store.calls.get('events.list') ?? 0;
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => pushOnce(i + 2)));
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    await settled(t);
    // One waiting run per calendar while one runs: far fewer lists than pushes.
    expect((fake.store.calls.get('events.list') ?? 0) - listsBefore).toBeLessThanOrEqual(4);
    const ids = (await blocks()).map((b) => b.event_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(2);
    const fullBefore = fake.store.calls.get('events.list.full') ?? 0;
    fake.store.switches.goneTokens.add('*');
    fake.store.addBusyEvent(WORK, new Date(at(monday, '12:00')), new Date(at(monday, '12:30')));
    await pushOnce(200);
    await settled(t);
    expect(fake.store.calls.get('events.list.full')).toBe(fullBefore + 1);
    const after = (await blocks()).map((b) => b.event_id);
    expect(after).toHaveLength(3);
    expect(new Set(after).size).toBe(3);
    expect(await slotsOf()).toEqual(['11:00', '13:00']);
  });

  it('refuses a push with a wrong token or resource, and an unknown channel', async () => {
    const p = fake.push(channel());
    const wrong = await t.post(p.path, undefined, { headers: { ...p.headers, 'x-goog-channel-token': 'nope' } });
    expect(wrong.statusCode).toBe(403);
    const other = await t.post(p.path, undefined, { headers: { ...p.headers, 'x-goog-resource-id': 'res-other' } });
    expect(other.statusCode).toBe(403);
    const unknown = await t.post(p.path, undefined, { headers: { ...p.headers, 'x-goog-channel-id': crypto.randomUUID() } });
    expect(unknown.statusCode).toBe(404);
    expect((await t.post(p.path, undefined)).statusCode).toBe(404);
  });

  it('shows the therapist their own busy times only, as times', async () => {
    const q = `from=${encodeURIComponent(at(monday, '00:00'))}&to=${encodeURIComponent(at(monday, '23:59'))}`;
    const res = await t.get(`${G(ws.id)}/busy?${q}`, { token: olga.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    const items = json<{ items: { start: string; end: string }[] }>(res).items;
    expect(items.map((b) => Object.keys(b).sort())).toEqual(items.map(() => ['end', 'start']));
    expect(items[0]).toEqual({ start: at(monday, '09:00'), end: at(monday, '09:50') });
    // A colleague of the workspace sees none of them.
    const rita = await therapist(t, 'rita@gbusy.test', 'Rita');
    const role = (
      await t.get(`/api/v1/workspaces/${ws.id}/roles`, { token: olga.accessToken }).then((r) => json<{ id: string; name: string }[]>(r))
    )[0]!;
    await addMember(t, olga, ws.id, rita, [role.id]);
    expect(json<{ items: unknown[] }>(await t.get(`${G(ws.id)}/busy?${q}`, { token: rita.accessToken })).items).toEqual([]);
    const long = await t.get(`${G(ws.id)}/busy?from=${encodeURIComponent(at(monday, '00:00'))}&to=2099-01-01T00:00:00Z`, {
      token: olga.accessToken,
    });
    expect([long.statusCode, json<{ code: string }>(long).code]).toEqual([400, 'google_busy_range_too_long']);
  });

  it('channels about to end are renewed and the old one stopped', async () => {
    await t.rows(sql`update google_busy_calendars set channel_expires_at = now() + interval '1 hour'`);
    const old = channel();
    await t.app.services.googleCalendar.channels.poll();
    await settled(t);
    expect(fake.store.liveChannels(WORK)).toHaveLength(1);
    expect(channel().id).not.toBe(old.id);
    expect(old.stopped).toBe(true);
  });
});
