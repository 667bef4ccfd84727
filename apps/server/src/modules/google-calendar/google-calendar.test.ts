import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shiftDay, toInstant, type GoogleCalendarStatus, type GoogleSessionLink, type Workspace } from '@divan/core';
import { ACCOUNT_EMAIL, MEET_LINK, startFakeGoogle, type FakeGoogle } from '../../test/fake-google-calendar';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { until } from '../../test/until';
import { addMember, createRole, createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { connect, databaseText, G, nextMonday, patientOf, settled } from './google-calendar.testkit';

let fake: FakeGoogle;
let t: TestApp;
let olga: Therapist;
let ws: Workspace;
let patientId: string;
const W = () => `/api/v1/workspaces/${ws.id}`;
const day = shiftDay(nextMonday(), 1);

const createSession = async (body: Record<string, unknown> = {}) => {
  const res = await t.post(
    `${W()}/sessions`,
    { patientId, day, from: '10:00', to: '10:50', modality: 'presential', ...body },
    { token: olga.accessToken },
  );
  expect(res.statusCode, res.body).toBe(201);
  return json<{ session: { id: string } }>(res).session.id;
};
const eventOf = (sessionId: string) =>
  fake.store
    .divanEvents()
    .find((e) => (e.extendedProperties as { private?: { divanSessionId?: string } })?.private?.divanSessionId === sessionId);
const status = async () => json<GoogleCalendarStatus>(await t.get(G(ws.id), { token: olga.accessToken }));

beforeAll(async () => {
  fake = await startFakeGoogle();
  t = await createTestApp({ googleCalendar: fake.config() });
  olga = await therapist(t, 'olga@gcal.test', 'Olga');
  ws = await createWorkspace(t, olga, 'Consulta Olga', 'freelance');
  await t.app.services.workspaces.setPlan(ws.id, { id: 'team', seats: 10 });
  patientId = await patientOf(t, olga, ws.id, 'Ana', 'García Pérez');
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('connecting Google Calendar', () => {
  let before: string;

  it('without a refresh token in Google’s answer, nothing is connected (spec §8)', async () => {
    before = await createSession({ from: '08:00', to: '08:50' });
    fake.store.switches.omitRefreshToken = true;
    const { res } = await connect(t, fake, olga, ws.id);
    fake.store.switches.omitRefreshToken = false;
    expect(res.statusCode).toBe(400);
    expect(json<{ code: string; message: string }>(res).code).toBe('google_refresh_token_missing');
    expect((await status()).connected).toBe(false);
    expect(await t.rows(sql`select 1 from google_calendar_connections`)).toHaveLength(0);
  });

  it('connects with offline access to the web page’s callback, keeps the refresh token only encrypted, and makes a «Diván» calendar', async () => {
    const { res, consent, status: s } = await connect(t, fake, olga, ws.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(consent.redirectTo).toBe('http://divan.test/settings/integrations/google/callback');
    expect(s).toMatchObject({ enabled: true, connected: true, googleEmail: ACCOUNT_EMAIL, titleFormat: 'initials', busyCalendarIds: [] });
    expect(s!.calendars.map((c) => c.name).sort()).toEqual([ACCOUNT_EMAIL, 'Trabajo'].sort());
    expect(fake.store.divanCalendar()).toBeDefined();
    const [refresh] = [...fake.store.refreshTokens.keys()];
    const dump = JSON.stringify(await t.rows(sql`select * from google_calendar_connections`));
    expect(dump).toContain(ws.id);
    expect(dump).not.toContain(refresh);
    expect(dump).not.toContain(refresh!.split('.')[1]);
    const everything = await databaseText(t);
    expect(everything).toContain(ws.id);
    expect(everything).not.toContain(refresh!.split('.')[1]);
    for (const access of fake.store.accessTokens.keys()) expect(everything).not.toContain(access.split('.')[1]);
    // The state is good once: the same answer again is refused, and so is a made-up one.
    const again = await t.post(`${G(ws.id)}/callback`, { code: consent.code, state: consent.state }, { token: olga.accessToken });
    expect([again.statusCode, json<{ code: string }>(again).code]).toEqual([400, 'google_oauth_state_invalid']);
    // A code Google does not know (made up, or of another client) is Google's refusal, never a 500.
    const other = json<{ url: string }>(await t.post(`${G(ws.id)}/authorize`, undefined, { token: olga.accessToken }));
    const state = new URL(other.url).searchParams.get('state')!;
    const refused = await t.post(`${G(ws.id)}/callback`, { code: '4/not-a-code', state }, { token: olga.accessToken });
    expect([refused.statusCode, json<{ code: string }>(refused).code]).toEqual([400, 'google_oauth_failed']);
    const forged = await t.post(`${G(ws.id)}/callback`, { code: consent.code, state: 'x'.repeat(43) }, { token: olga.accessToken });
    expect(forged.statusCode).toBe(400);
  });

  it('sends only the sessions created after connecting, until the therapist asks for the existing ones too', async () => {
    await settled(t);
    expect(eventOf(before)).toBeUndefined();
    const res = await t.post(`${G(ws.id)}/sync-existing`, undefined, { token: olga.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    expect(json<{ queued: number }>(res).queued).toBeGreaterThanOrEqual(1);
    expect((await until(async () => eventOf(before), Boolean))?.summary).toBe('Sesión · A. G.');
  });
});

describe('Diván → Google', () => {
  it('a session appears, moves and disappears in the Diván calendar, one event all along', async () => {
    const id = await createSession();
    const created = await until(async () => eventOf(id), Boolean);
    expect(created).toMatchObject({ summary: 'Sesión · A. G.', visibility: 'private', transparency: 'opaque' });
    expect(new Date(created!.start!.dateTime!).toISOString()).toBe(new Date(`${day}T09:00:00Z`).toISOString());
    const moved = await t.patch(`${W()}/sessions/${id}`, { day, from: '12:00', to: '12:50' }, { token: olga.accessToken });
    expect(moved.statusCode, moved.body).toBe(200);
    await until(
      async () => eventOf(id)?.start?.dateTime,
      (v) => !!v && new Date(v).getUTCHours() === 11,
    );
    expect(fake.store.divanEvents().filter((e) => e.id === created!.id)).toHaveLength(1);
    const canceled = await t.post(`${W()}/sessions/${id}/cancel`, { reason: 'patient' }, { token: olga.accessToken });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(
      await until(
        async () => eventOf(id),
        (e) => !e,
      ),
    ).toBeUndefined();
  });

  it('an online session with Google Meet gets its Meet link, shown with the session', async () => {
    const id = await createSession({ from: '16:00', to: '16:50', modality: 'online', videoConference: 'google_meet' });
    const e = await until(
      async () => eventOf(id),
      (x) => !!x?.hangoutLink,
    );
    expect(e?.hangoutLink).toBe(MEET_LINK);
    await settled(t);
    const link = json<GoogleSessionLink>(await t.get(`${G(ws.id)}/sessions/${id}`, { token: olga.accessToken }));
    expect(link).toEqual({ synced: true, meetLink: MEET_LINK });
    // …and in the patient's reminder.
    const res = await t.post(
      `${W()}/patients`,
      { firstName: 'Luis', lastName: 'Soto', email: 'luis@paciente.test', assignedTherapistId: olga.userId },
      { token: olga.accessToken },
    );
    const luis = json<{ id: string }>(res).id;
    const reminded = await createSession({
      patientId: luis,
      from: '15:00',
      to: '15:50',
      modality: 'online',
      videoConference: 'google_meet',
      reminders: [60],
    });
    await until(
      async () => eventOf(reminded),
      (x) => !!x?.hangoutLink,
    );
    await settled(t);
    await t.app.services.reminders.sendDue(new Date(toInstant(day, '14:05', 'Europe/Madrid')));
    expect((await t.lastMail('luis@paciente.test')).text).toContain(MEET_LINK);
    // Google's own video only when chosen: Diván's room leaves the event without one.
    const own = await createSession({ from: '17:00', to: '17:50', modality: 'online', videoConference: 'own' });
    expect((await until(async () => eventOf(own), Boolean))?.hangoutLink).toBeUndefined();
  });

  it('a session a series edit deletes is deleted in Google', async () => {
    const res = await t.post(
      `${W()}/sessions`,
      {
        patientId,
        day: shiftDay(day, 1),
        from: '09:00',
        to: '09:50',
        modality: 'presential',
        recurrence: { frequency: 'weekly', end: { count: 3 } },
      },
      { token: olga.accessToken },
    );
    expect(res.statusCode, res.body).toBe(201);
    const created = json<{ session: { id: string } }>(res).session;
    await settled(t);
    const series = fake.store.divanEvents().filter((e) => e.start?.dateTime?.includes('T08:00:00'));
    expect(series).toHaveLength(3);
    const shorter = await t.patch(
      `${W()}/sessions/${created.id}`,
      { scope: 'all', recurrence: { end: { count: 2 } } },
      { token: olga.accessToken },
    );
    expect(shorter.statusCode, shorter.body).toBe(200);
    await until(
      async () => fake.store.divanEvents().filter((e) => e.start?.dateTime?.includes('T08:00:00')).length,
      (n) => n === 2,
    );
    expect(fake.store.divanEvents().filter((e) => e.start?.dateTime?.includes('T08:00:00'))).toHaveLength(2);
  });

  it('an expired access token is refreshed once and the change still goes', async () => {
    fake.store.expireAccessTokens();
    const id = await createSession({ from: '18:00', to: '18:50' });
    expect(await until(async () => eventOf(id), Boolean)).toBeDefined();
  });

  it('the title follows the privacy choice, and nothing else of the patient reaches Google', async () => {
    const res = await t.post(
      `${W()}/sessions/${await createSession({ from: '19:00', to: '19:30' })}/note`,
      {
        title: 'Nota',
        date: day,
        body: '<p>Habla de su padre y del insomnio</p>',
      },
      { token: olga.accessToken },
    );
    expect(res.statusCode, res.body).toBe(201);
    expect((await t.put(`${G(ws.id)}/settings`, { titleFormat: 'generic' }, { token: olga.accessToken })).statusCode).toBe(200);
    const generic = await createSession({ from: '20:00', to: '20:30' });
    expect((await until(async () => eventOf(generic), Boolean))?.summary).toBe('Sesión');
    await settled(t);
    // The events sent before take the new title too.
    expect(fake.store.divanEvents().map((e) => e.summary)).toEqual(fake.store.divanEvents().map(() => 'Sesión'));
    const everything = JSON.stringify(fake.store.allEvents());
    for (const secret of ['García', 'Pérez', 'Ana García', 'Duelo', 'mourning', 'insomnio', 'padre', '6000', '60,00'])
      expect(everything).not.toContain(secret);
  });

  it('the poll repairs what a lost job left: a change committed without its sync, sessions deleted without an event', async () => {
    const moved = await createSession({ from: '21:00', to: '21:30' });
    const gone = await createSession({ from: '21:30', to: '22:00' });
    expect(await until(async () => !!eventOf(moved) && !!eventOf(gone), Boolean)).toBe(true);
    await settled(t);
    const poll = () => t.app.services.googleCalendar.channels.poll();
    // Nothing to repair: the poll writes no event.
    const writes = () => ['events.insert', 'events.patch', 'events.delete'].map((k) => fake.store.calls.get(k) ?? 0);
    const before = writes();
    await poll();
    await settled(t);
    expect(writes()).toEqual(before);
    // As if the process had ended between the commit and the job: the row changed, no job queued. And a
    // patient's erasure deletes their sessions in bulk, with no session event.
    await t.rows(
      sql`update sessions set starts_at = starts_at + interval '1 hour', ends_at = ends_at + interval '1 hour', updated_at = now() where id = ${moved}`,
    );
    await t.rows(sql`delete from sessions where id = ${gone}`);
    await poll();
    const start = await until(
      async () => eventOf(moved)?.start?.dateTime,
      (v) => !!v && new Date(v).getUTCHours() === 21,
      5_000,
    );
    expect(new Date(start!).getUTCHours()).toBe(21);
    expect(
      await until(
        async () => eventOf(gone),
        (e) => !e,
        5_000,
      ),
    ).toBeUndefined();
    expect(await t.rows(sql`select 1 from google_session_events where session_id = ${gone}`)).toHaveLength(0);
  });

  it('refuses a title format it does not know, and a calendar the account does not have', async () => {
    expect((await t.put(`${G(ws.id)}/settings`, { titleFormat: 'motive' }, { token: olga.accessToken })).statusCode).toBe(400);
    const bad = await t.put(`${G(ws.id)}/settings`, { busyCalendarIds: ['otra@gmail.com'] }, { token: olga.accessToken });
    expect([bad.statusCode, json<{ code: string }>(bad).code]).toEqual([400, 'google_calendar_unknown_calendar']);
  });
});

describe('disconnecting', () => {
  it('a member removed from the workspace: their connection ends there, revoked at Google', async () => {
    const pablo = await therapist(t, 'pablo@gcal.test', 'Pablo');
    const role = await createRole(t, olga, ws.id, 'Agenda', [{ action: 'read', subject: 'sessions' }]);
    const { memberId } = await addMember(t, olga, ws.id, pablo, [role.id]);
    const { status: s } = await connect(t, fake, pablo, ws.id);
    expect(s?.connected).toBe(true);
    const [conn] = await t.rows<{ id: string }>(sql`select id from google_calendar_connections where user_id = ${pablo.userId}`);
    expect(conn).toBeDefined();
    const revoked = fake.store.revocations.length;
    const res = await t.del(`${W()}/members/${memberId}`, { token: olga.accessToken });
    expect(res.statusCode, res.body).toBe(204);
    expect(await t.rows(sql`select 1 from google_calendar_connections where user_id = ${pablo.userId}`)).toHaveLength(0);
    expect(fake.store.revocations.length).toBe(revoked + 1);
    // Olga's own connection is untouched.
    expect((await status()).connected).toBe(true);
  });

  it('revokes the grant at Google, stops the channels, deletes every token, and sends nothing more', async () => {
    expect(
      (await t.put(`${G(ws.id)}/settings`, { busyCalendarIds: ['trabajo@group.calendar.google.com'] }, { token: olga.accessToken }))
        .statusCode,
    ).toBe(200);
    await until(
      async () => fake.store.liveChannels().length,
      (n) => n === 1,
    );
    await settled(t);
    const [refresh] = [...fake.store.refreshTokens.keys()];
    const res = await t.del(G(ws.id), { token: olga.accessToken });
    expect(res.statusCode, res.body).toBe(204);
    expect(fake.store.revocations).toContain(refresh);
    expect(fake.store.liveChannels()).toHaveLength(0);
    for (const table of [
      'google_calendar_connections',
      'google_busy_calendars',
      'google_busy_blocks',
      'google_session_events',
      'google_oauth_states',
    ])
      expect(await t.rows(sql.raw(`select 1 from ${table}`)), table).toHaveLength(0);
    expect((await status()).connected).toBe(false);
    expect(await databaseText(t)).not.toContain(refresh!.split('.')[1]);
    const calls = JSON.stringify([...fake.store.calls]);
    const id = await createSession({ from: '13:00', to: '13:50' });
    await t.patch(`${W()}/sessions/${id}`, { day, from: '14:00', to: '14:50' }, { token: olga.accessToken });
    await settled(t);
    await new Promise((r) => setTimeout(r, 300));
    expect(JSON.stringify([...fake.store.calls])).toBe(calls);
  });
});
