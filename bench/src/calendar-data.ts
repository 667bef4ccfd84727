// The calendar scenario of issue 10: a clinic of 50 therapists, 20,000 patients and 300,000 sessions over
// two years (the past year and the next), on PostgreSQL. Everything is written straight into the database
// with SQL (the API would take hours), in the shape the server writes: instants plus the zone, the
// patient's price, the therapist's fee and payments receiver from their membership, statuses that follow
// the time (past sessions mostly completed and paid, a few canceled with a reason; future ones pending).
import pg from 'pg';
import { DEFAULT_TIME_ZONE, shiftDay, todayIn, weekRange } from '@divan/core';
import type { Dataset } from './dataset';
import { openSql, seedPatients } from './patients';

export const CALENDAR_TZ = DEFAULT_TIME_ZONE;
const FIRST = ['Alba', 'Bruno', 'Clara', 'Diego', 'Eva', 'Fermín', 'Gala', 'Héctor', 'Inés', 'Jorge'];
const LAST = ['Aranda', 'Benítez', 'Cortés', 'Duarte', 'Escobar', 'Ferrer', 'Galán', 'Herrera', 'Iglesias', 'Lozano'];

export type Clinic = {
  workspaceId: string;
  therapistIds: string[];
  patients: number;
  sessions: number;
  /** The current week in Madrid, [Monday, next Monday). */
  week: { from: string; to: string };
  /** Sessions of the current week: all therapists, and the one measured alone. */
  weekAll: number;
  weekOne: number;
  oneTherapistId: string;
  seconds: number;
};

export type ClinicOptions = {
  therapists: number;
  patients: number;
  sessions: number;
  weeks: number;
  /** Weeks before this one where the sessions start (default: half of them, the past year and the next). */
  pastWeeks?: number;
  /** The workspace's shape: a clinic on Team (default), or a freelance practice (one therapist) on Advance. */
  practice?: 'clinic' | 'freelance';
};

/**
 * The clinic, on PostgreSQL while the server runs, or on PGlite with the server stopped (`stopped`, as
 * `seedPatients`): the data dir is written here and closed before the caller starts a server on it again.
 */
export async function seedClinic(ds: Dataset, o: ClinicOptions, x: { stopped?: () => Promise<void> } = {}): Promise<Clinic> {
  if (!ds.databaseUrl && !x.stopped) throw new Error('on PGlite the server must stop before the bench writes its data dir');
  const started = performance.now();
  const { workspaceId } = await seedPatients(ds, o.patients, x);
  const client = await openSql(ds);
  try {
    await client.query('begin');
    // A clinic on the team plan with a seat per therapist (the owner's personal workspace, made a clinic);
    // a freelance practice is that workspace on Advance, its owner the only therapist.
    const freelance = o.practice === 'freelance';
    await client.query(`update workspaces set template = $3, plan_id = $4, plan_seats = $2 where id = $1`, [
      workspaceId,
      o.therapists,
      freelance ? 'freelance' : 'clinic',
      freelance ? 'advance' : 'team',
    ]);
    // The owner is the first therapist; the others are accounts that never signed in.
    const others = Array.from({ length: o.therapists - 1 }, (_, i) => [
      `bench.terapeuta${i}@example.com`,
      FIRST[i % FIRST.length]!,
      `${LAST[(i * 3) % LAST.length]} ${i}`,
    ]);
    const users = await client.query<{ id: string }>(
      `insert into users (email, first_name, last_name, email_verified_at) select * , now() from unnest($1::text[], $2::text[], $3::text[]) returning id`,
      [others.map((u) => u[0]), others.map((u) => u[1]), others.map((u) => u[2])],
    );
    await client.query(`insert into members (workspace_id, user_id) select $1, unnest($2::uuid[])`, [
      workspaceId,
      users.rows.map((r) => r.id),
    ]);
    const therapist = await client.query<{ id: string }>(
      `select id from roles where workspace_id = $1 and not is_admin order by name limit 1`,
      [workspaceId],
    );
    if (therapist.rows[0])
      await client.query(
        `insert into member_roles (workspace_id, member_id, role_id) select m.workspace_id, m.id, $2 from members m where m.workspace_id = $1 and m.user_id = any($3::uuid[])`,
        [workspaceId, therapist.rows[0].id, users.rows.map((r) => r.id)],
      );
    // Commissions as a clinic sets them: most a percentage paid to the clinic, some a fixed fee paid to themselves.
    await client.query(
      `update members set commission_type = case when rn % 4 = 0 then 'fixed' else 'percentage' end,
              commission_value = case when rn % 4 = 0 then 2500 else 4000 + (rn % 3) * 1000 end,
              payments_receiver = case when rn % 4 = 0 then 'therapist' else 'workspace' end
         from (select id, row_number() over (order by created_at, id) as rn from members where workspace_id = $1) r
        where members.id = r.id`,
      [workspaceId],
    );
    // Prices on the patients' files, as the form sets them (most have one).
    await client.query(
      `update patients set session_price = case when abs(hashtext(id::text)) % 10 = 0 then null else 4500 + (abs(hashtext(id::text)) % 5) * 500 end where workspace_id = $1`,
      [workspaceId],
    );
    await client.query(`insert into locations (workspace_id, name) select $1, 'Sala ' || g from generate_series(1, 10) g`, [workspaceId]);

    const today = todayIn(CALENDAR_TZ);
    const week = weekRange(today, CALENDAR_TZ);
    const thisMonday = shiftDay(today, -((new Date(`${today}T12:00:00Z`).getUTCDay() + 6) % 7));
    const firstMonday = shiftDay(thisMonday, -7 * (o.pastWeeks ?? Math.floor(o.weeks / 2)));
    const slotsPerDay = Math.ceil(o.sessions / (o.therapists * o.weeks * 5));
    const candidates = o.therapists * o.weeks * 5 * slotsPerDay;
    // n → therapist (n % T), weekday of the two years and hour slot; a hashed sample of the candidates
    // keeps exactly `sessions` of them, so days are not all equally full.
    await client.query(
      `with t as (select user_id as id, (row_number() over (order by created_at, id)) - 1 as i, commission_type, commission_value, payments_receiver
                    from members where workspace_id = $1),
            p as (select id, (row_number() over (order by id)) - 1 as i, coalesce(session_price, 6000) as price from patients where workspace_id = $1),
            l as (select id, (row_number() over (order by name)) - 1 as i from locations where workspace_id = $1),
            n as (select n from generate_series(0, $4::int - 1) n order by md5(n::text) limit $5),
            s as (select n,
                         n % $6 as ti,
                         (n / $6) / $7 as di,
                         (n / $6) % $7 as slot
                    from n),
            x as (select s.n, t.id as therapist_id, t.commission_type, t.commission_value, t.payments_receiver, p.id as patient_id, p.price, l.id as room_id,
                         ((($2::date + ((s.di / 5) * 7 + s.di % 5)::int) + make_time(8 + s.slot::int, 0, 0)) at time zone $3) as starts_at
                    from s
                    join t on t.i = s.ti
                    join p on p.i = (s.n::bigint * 7919) % $8
                    join l on l.i = s.ti % 10)
       insert into sessions (workspace_id, patient_id, therapist_id, starts_at, ends_at, time_zone, status, cancellation_reason, canceled_at, completed_at,
                             price, fee, payments_receiver, payment_status, payment_type, paid_at, modality, location_id, reminders, invoiced, charge_date,
                             video_conference, created_by, created_at, updated_at)
       select $1, patient_id, therapist_id, starts_at, starts_at + interval '50 minutes', $3,
              st, case when st = 'canceled' then (array['patient', 'therapist', 'no_show', 'late'])[1 + n % 4] end,
              case when st = 'canceled' then starts_at - interval '1 day' end,
              case when st = 'completed' then starts_at + interval '50 minutes' end,
              price,
              -- core's sessionFee: the price less the clinic's commission (decision 0024)
              case when commission_type = 'fixed' then price - least(commission_value, greatest(price, 0)) when commission_type = 'percentage' then price - (price * commission_value + 5000) / 10000 end,
              payments_receiver,
              pay, case when pay = 'paid' then (array['card', 'cash', 'transfer'])[1 + n % 3] end,
              case when pay = 'paid' then starts_at + interval '50 minutes' end,
              case when n % 10 < 3 then 'online' else 'presential' end,
              case when n % 10 < 3 then null else room_id end,
              '[1440]'::jsonb,
              pay = 'paid' and n % 3 = 0,
              case when pay = 'paid' then (starts_at at time zone $3)::date end,
              case when n % 10 < 3 then 'own' end,
              $9, starts_at - interval '14 days', starts_at - interval '14 days'
         from (select x.*,
                      case when starts_at < now() then (case when n % 100 < 88 then 'completed' when n % 100 < 95 then 'canceled' else 'pending' end)
                           else (case when n % 100 < 95 then 'pending' else 'canceled' end) end as st
                 from x) y
         cross join lateral (select case when st = 'completed' and n % 10 <> 0 then 'paid' else 'pending' end as pay) z`,
      [workspaceId, firstMonday, CALENDAR_TZ, candidates, o.sessions, o.therapists, slotsPerDay, o.patients, ds.session.userId],
    );
    await client.query('commit');
    // A live database is vacuumed by autovacuum; measure that steady state, every table of it (else
    // autovacuum and the checkpoint of the seed's writes compete with the server mid-measurement).
    await client.query('vacuum analyze');
    await client.query('checkpoint');
    const ids = await client.query<{ user_id: string }>(`select user_id from members where workspace_id = $1 order by created_at, id`, [
      workspaceId,
    ]);
    // The therapist measured alone: not the owner (whose week is as full as anyone's, but who reads everything),
    // unless the owner is the only one.
    const oneTherapistId = (ids.rows[1] ?? ids.rows[0]!).user_id;
    const counts = await client.query<{ all: string; one: string; total: string }>(
      `select count(*) filter (where starts_at >= $2 and starts_at < $3) as all,
              count(*) filter (where starts_at >= $2 and starts_at < $3 and therapist_id = $4) as one,
              count(*) as total
         from sessions where workspace_id = $1`,
      [workspaceId, week.start, week.end, oneTherapistId],
    );
    const c = counts.rows[0]!;
    return {
      workspaceId,
      therapistIds: ids.rows.map((r) => r.user_id),
      patients: o.patients,
      sessions: Number(c.total),
      week: { from: week.start.toISOString(), to: week.end.toISOString() },
      weekAll: Number(c.all),
      weekOne: Number(c.one),
      oneTherapistId,
      seconds: (performance.now() - started) / 1000,
    };
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    await client.close();
  }
}

/**
 * EXPLAIN ANALYZE of the calendar's week read as the server sends it (sessions.repository.ts `range`:
 * the location and series joins, ordered by start, bounded), for all therapists and for one.
 */
export async function explainWeek(databaseUrl: string, clinic: Clinic, limit: number): Promise<{ all: string[]; one: string[] }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const query = (one: boolean) =>
    `explain (analyze, buffers, costs off)
     select s.*, l.name, ss.frequency, ss.start_day, ss.start_time, ss.monthly_week
       from sessions s
       left join locations l on l.id = s.location_id
       left join session_series ss on ss.id = s.series_id
      where s.workspace_id = $1 and s.starts_at >= $2 and s.starts_at < $3 ${one ? 'and s.therapist_id = $5' : ''}
      order by s.starts_at, s.id
      limit $4`;
  try {
    const plan = async (one: boolean) => {
      const params: unknown[] = [clinic.workspaceId, clinic.week.from, clinic.week.to, limit];
      if (one) params.push(clinic.oneTherapistId);
      // Warm the pages first: the server reads a cached week, not one off the disk.
      await client.query(query(one), params);
      return (await client.query<{ 'QUERY PLAN': string }>(query(one), params)).rows.map((r) => r['QUERY PLAN']);
    };
    return { all: await plan(false), one: await plan(true) };
  } finally {
    await client.end();
  }
}
