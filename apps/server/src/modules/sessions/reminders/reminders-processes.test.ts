// Reminders across restarts and server processes: due while no server ran → sent once after start (not
// for a session that already started); two processes on one PostgreSQL → each reminder exactly once.
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { formatDayEs, type Session, type Workspace } from '@divan/core';
import { createSecondApp, createTestApp, json, type TestApp } from '../../../test/test-app';
import { nextWeek, W } from '../../../test/session-fixtures';
import { therapist } from '../../../test/workspace-fixtures';

const MIN = 60_000;
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

/** A therapist's own workspace with a patient who has an email. */
async function practice(t: TestApp, tag: string) {
  const owner = await therapist(t, `clara-${tag}@recordatorios.test`, 'Clara');
  const ws = json<Workspace[]>(await t.get('/api/v1/workspaces', { token: owner.accessToken }))[0]!;
  const email = `paciente-${tag}@recordatorios.test`;
  const patient = json<{ id: string }>(await t.post(`${W(ws.id)}/patients`, { firstName: 'Nico', email }, { token: owner.accessToken })).id;
  const make = async (body: object) => {
    const res = await t.post(`${W(ws.id)}/sessions`, { patientId: patient, ...body }, { token: owner.accessToken });
    if (res.statusCode !== 201) throw new Error(res.body);
    return json<{ session: Session }>(res).session;
  };
  return { owner, ws, email, make };
}

describe('reminders across a restart', () => {
  it('sends once, after start, a reminder that fell due while the server was down; nothing for a session that started meanwhile', async () => {
    const a = await createTestApp({ inMemoryDatabase: false });
    cleanups.push(() => a.close());
    const p = await practice(a, 'reinicio');
    const day = nextWeek(1);
    const started = await p.make({ day, from: '09:00', to: '09:30', reminders: [60] });
    const due = await p.make({ day, from: '10:00', to: '10:50', reminders: [60] });
    expect(await a.app.services.mailer.list(p.email)).toEqual([]);
    await a.app.close(); // down: nothing ran while both reminders fell due

    // Back up at 09:30 that day: the 10:00 session's reminder is 30 minutes late, the 09:00 one has started.
    const clock = () => new Date(Date.parse(due.startsAt) - 30 * MIN);
    const b = await createTestApp(
      {
        dataDir: a.config.dataDir,
        inMemoryDatabase: false,
        databaseUrl: a.config.databaseUrl,
        appSecret: a.config.appSecret,
        clinicalKey: a.config.clinicalKey,
      },
      { clock },
    );
    cleanups.push(() => b.close());
    // No call from the test: the job queued at start does it.
    await expect.poll(async () => (await b.app.services.mailer.list(p.email)).length, { timeout: 20_000, interval: 100 }).toBe(1);
    const [mail] = await b.app.services.mailer.list(p.email);
    expect(mail!.subject).toBe(`Recordatorio: sesión el ${weekdayOf(day)} ${formatDayEs(day)} a las 10:00`);
    // Later runs (the minute's sweep, another start) find nothing left to send.
    expect(await b.app.services.reminders.sendDue()).toBe(0);
    expect(await b.rows(sql`select session_id, outcome from session_reminder_sends order by created_at`)).toEqual([
      { session_id: due.id, outcome: 'sent' },
    ]);
    expect(await b.rows(sql`select count(*)::int as n from session_reminder_sends where session_id = ${started.id}`)).toEqual([{ n: 0 }]);
    // And the minute's sweep is scheduled in pg-boss, for the runs after this one.
    expect(await b.rows(sql`select name, cron from pgboss.schedule where name = 'sessions.reminders'`)).toEqual([
      { name: 'sessions.reminders', cron: '* * * * *' },
    ]);
  }, 60_000);
});

const weekdayOf = (day: string) =>
  ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'][(new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7];

describe.skipIf(!process.env.TEST_DATABASE_URL)('two server processes on one PostgreSQL', () => {
  it('send each reminder exactly once, however their sweeps overlap', async () => {
    const a = await createTestApp();
    cleanups.push(() => a.close());
    const b = await createSecondApp(a);
    cleanups.push(() => b.close());
    const p = await practice(a, 'dos');
    // Two weeks before a session next week: due at once, for both processes (their own minute's sweeps run too).
    const sessions: Session[] = [];
    for (let i = 0; i < 40; i++)
      sessions.push(
        await p.make({
          day: nextWeek(i % 5),
          from: `${String(8 + Math.floor(i / 5)).padStart(2, '0')}:00`,
          to: `${String(8 + Math.floor(i / 5)).padStart(2, '0')}:45`,
          reminders: [20160],
        }),
      );
    await Promise.all([a, b, a, b, b, a].map((t) => t.app.services.reminders.sendDue()));
    const mails = await a.rows<{ n: number }>(sql`select count(*)::int as n from mail_outbox where purpose = 'session_reminder'`);
    expect(mails).toEqual([{ n: 40 }]);
    const sends = await a.rows<{ session_id: string; outcome: string }>(sql`select session_id, outcome from session_reminder_sends`);
    expect(sends).toHaveLength(40);
    expect(new Set(sends.map((s) => s.session_id))).toEqual(new Set(sessions.map((s) => s.id)));
    expect(sends.every((s) => s.outcome === 'sent')).toBe(true);
    expect(await b.app.services.mailer.list(p.email, 100)).toHaveLength(40);
  }, 120_000);
});
