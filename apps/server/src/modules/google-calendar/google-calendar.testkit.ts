import { sql } from 'drizzle-orm';
import { shiftDay, todayIn, type GoogleCalendarStatus } from '@divan/core';
import type { FakeGoogle } from '../../test/fake-google-calendar';
import { json, type TestApp } from '../../test/test-app';
import { until } from '../../test/until';
import type { Therapist } from '../../test/workspace-fixtures';

export const G = (workspaceId: string) => `/api/v1/workspaces/${workspaceId}/google-calendar`;

/** The next Monday at least a week ahead (Madrid), and the day after it. */
export function nextMonday(): string {
  for (let n = 8; n < 15; n++) {
    const day = shiftDay(todayIn('Europe/Madrid'), n);
    if (new Date(`${day}T12:00:00Z`).getUTCDay() === 1) return day;
  }
  throw new Error('no monday');
}

/** Connects the therapist's Google Calendar as the web page would: authorize, consent at the fake, post code and state back. */
export async function connect(t: TestApp, fake: FakeGoogle, who: Therapist, workspaceId: string) {
  const auth = await t.post(`${G(workspaceId)}/authorize`, undefined, { token: who.accessToken });
  if (auth.statusCode !== 200) throw new Error(`authorize: ${auth.body}`);
  const consent = await fake.consent(json<{ url: string }>(auth).url);
  const res = await t.post(`${G(workspaceId)}/callback`, { code: consent.code, state: consent.state }, { token: who.accessToken });
  return { res, consent, status: res.statusCode === 200 ? json<GoogleCalendarStatus>(res) : undefined };
}

/** Every job of the module's queues done (none created, retrying or active). */
export async function settled(t: TestApp, ms = 10_000) {
  const pending = async () =>
    (
      await t.rows<{ n: number }>(
        sql`select count(*)::int as n from pgboss.job where name like 'google-calendar.%' and state in ('created', 'retry', 'active')`,
      )
    )[0]!.n;
  return until(pending, (n) => n === 0, ms);
}

/** A patient of the therapist with a full name, a motive and a price (what must never reach Google but by the chosen title). */
export async function patientOf(t: TestApp, who: Therapist, workspaceId: string, firstName: string, lastName: string) {
  const res = await t.post(
    `/api/v1/workspaces/${workspaceId}/patients`,
    { firstName, lastName, assignedTherapistId: who.userId, treatment: { sessionPrice: 6000, motive: 'mourning' } },
    { token: who.accessToken },
  );
  if (res.statusCode !== 201) throw new Error(`patient: ${res.body}`);
  return json<{ id: string }>(res).id;
}

/** Every row of every table (Diván's and the jobs'), as text: what a database dump would hold. */
export async function databaseText(t: TestApp): Promise<string> {
  const tables = await t.rows<{ s: string; n: string }>(
    sql`select table_schema as s, table_name as n from information_schema.tables where table_schema in ('public', 'pgboss') and table_type = 'BASE TABLE'`,
  );
  const parts: string[] = [];
  for (const { s, n } of tables) {
    const rows = await t.rows<{ r: string }>(sql.raw(`select x::text as r from "${s}"."${n}" x`));
    parts.push(...rows.map((r) => r.r));
  }
  return parts.join('\n');
}
