// `npm run bench:booking` (issue 14): the public booking page's read — a month of a service's free slots
// (the month calendar's free days and every day's slots in one answer) — for a therapist with a busy
// year on PostgreSQL, at 50 connections, against a bare Fastify route in alternating slices. Target:
// p95 < 30 ms. Prints a table and writes bench/results/booking.json. Seeding takes some seconds.
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import pg from 'pg';
import { shiftDay, todayIn } from '@divan/core';
import { CALENDAR_TZ, seedClinic, type Clinic } from './calendar-data';
import { createDataset, type Dataset } from './dataset';
import { chooseGenerator, loadProblem, measurePair, type Endpoint } from './load';
import { Report } from './report';
import { runBench } from './run-bench';
import { startBare } from './servers';
import { envInt, errorMessage, root, serverMain } from './util';

const cfg = {
  durationSec: envInt('BENCH_DURATION', 10),
  warmupSec: envInt('BENCH_WARMUP', 3, 0),
  rounds: envInt('BENCH_ROUNDS', 2),
  connections: envInt('BENCH_CONNECTIONS', 50),
  adminUrl: process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  therapists: envInt('BENCH_THERAPISTS', 10),
  patients: envInt('BENCH_PATIENTS', 2_000),
  // ~1,500 sessions a year for each therapist: a full agenda, six a day.
  sessions: envInt('BENCH_SESSIONS', 30_000),
  weeks: envInt('BENCH_WEEKS', 104),
};
const TARGETS = { p95Ms: 30 };
const resultsFile = resolve(root, 'bench/results/booking.json');
const report = new Report();
const generator = chooseGenerator('wrk');
const load = { connections: cfg.connections, durationSec: cfg.durationSec, warmupSec: cfg.warmupSec, rounds: cfg.rounds, generator };
const step = (msg: string) => console.log(`→ ${msg}`);

/** A service of the measured therapist: weekdays 09–14 and 16–20, 50 minutes and 10 of gap, up to 3 months ahead. */
async function seedService(ds: Dataset, clinic: Clinic): Promise<string> {
  const client = new pg.Client({ connectionString: ds.databaseUrl });
  await client.connect();
  try {
    const day = [
      { from: '09:00', to: '14:00' },
      { from: '16:00', to: '20:00' },
    ];
    const schedule = { 1: day, 2: day, 3: day, 4: day, 5: day, 6: [], 7: [] };
    const { rows } = await client.query<{ id: string }>(
      `insert into booking_services (workspace_id, therapist_id, title, schedule, time_zone, price_cents, modality, duration_minutes, gap_minutes, min_notice, max_notice, reminders)
       values ($1, $2, 'Sesión de psicoterapia', $3, $4, 6000, 'online', 50, 10, '{"amount":24,"unit":"hours"}', '{"amount":3,"unit":"months"}', '[1440]') returning id`,
      [clinic.workspaceId, clinic.oneTherapistId, JSON.stringify(schedule), CALENDAR_TZ],
    );
    // Two blocked days ahead, as a therapist has.
    const today = todayIn(CALENDAR_TZ);
    await client.query(`insert into availability_overrides (workspace_id, therapist_id, day) values ($1, $2, $3), ($1, $2, $4)`, [
      clinic.workspaceId,
      clinic.oneTherapistId,
      shiftDay(today, 9),
      shiftDay(today, 23),
    ]);
    return rows[0]!.id;
  } finally {
    await client.end();
  }
}

/** EXPLAIN ANALYZE of the therapist's taken time over next month, as sessions.repository.ts `busyOf` reads it. */
async function explainBusy(ds: Dataset, clinic: Clinic) {
  const client = new pg.Client({ connectionString: ds.databaseUrl });
  await client.connect();
  try {
    const from = new Date(Date.now() + 3 * 86_400_000);
    const to = new Date(from.getTime() + 31 * 86_400_000);
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers, costs off) select starts_at, ends_at from sessions
        where workspace_id = $1 and therapist_id = $2 and status <> 'canceled' and starts_at >= $3 and starts_at < $4 and ends_at > $5 order by starts_at`,
      [clinic.workspaceId, clinic.oneTherapistId, new Date(from.getTime() - 12 * 3_600_000), to, from],
    );
    const lines = rows.map((r) => r['QUERY PLAN']);
    report.details.busyPlan = lines;
    const exec = lines.map((l) => /Execution Time: ([\d.]+) ms/.exec(l)).find(Boolean);
    report.add(
      'Taken time query',
      'a month of one therapist',
      Number(exec?.[1] ?? NaN),
      'ms',
      undefined,
      lines.find((l) => /Scan/.test(l))?.trim() ?? '',
    );
  } finally {
    await client.end();
  }
}

async function main() {
  if (!existsSync(serverMain)) throw new Error('apps/server/dist/main.js is missing: run `npm run build -w apps/server` first');
  console.log(`Diván public booking bench — ${cpus().length} cores, Node ${process.version}; load generator ${generator}.`);
  report.details.loadAverageAtStart = loadavg();
  if (loadavg()[0]! > 0.5) console.log(`Warning: load average ${loadavg()[0]!.toFixed(2)} at start — figures will be noisy.`);
  const bare = await startBare();
  step('a fresh PostgreSQL database, the clinic owner signed up through the API');
  const ds = await createDataset('postgres', { users: 1, adminUrl: cfg.adminUrl, concurrency: 1 });
  step(`writing ${cfg.therapists} therapists, ${cfg.patients} patients and ${cfg.sessions} sessions over ${cfg.weeks} weeks with SQL`);
  const clinic = await seedClinic(ds, { therapists: cfg.therapists, patients: cfg.patients, sessions: cfg.sessions, weeks: cfg.weeks });
  const serviceId = await seedService(ds, clinic);
  await explainBusy(ds, clinic);
  const month = (offset: number) => {
    const [y, m] = todayIn(CALENDAR_TZ).split('-').map(Number) as [number, number];
    const k = y * 12 + (m - 1) + offset;
    return `${Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, '0')}`;
  };
  const url = (m: string) =>
    `${ds.server.url}/api/v1/public/reservations/${clinic.workspaceId}/${clinic.oneTherapistId}/${serviceId}/slots?month=${m}&timeZone=America%2FBogota`;
  for (const [label, m] of [
    ['this month', month(0)],
    ['next month', month(1)],
  ] as const) {
    try {
      const first = await fetch(url(m));
      const body = (await first.json()) as { days?: { slots: unknown[] }[] };
      if (!first.ok || !body.days) throw new Error(`answered ${first.status}: ${JSON.stringify(body).slice(0, 200)}`);
      const slots = body.days.reduce((n, d) => n + d.slots.length, 0);
      report.add('Answer', `${label} (${m})`, slots, 'free slots', undefined, `${body.days.length} free days`);
      step(
        `${label}: ${cfg.warmupSec} s warm-up each, then ${cfg.durationSec} s each of it and the baseline, alternating, at ${cfg.connections} connections`,
      );
      const e: Endpoint = { url: url(m), headers: { 'accept-encoding': 'gzip' } };
      const p = await measurePair(e, { url: `${bare.url}/` }, load);
      report.details[label] = p;
      const problem = [loadProblem(p.target), loadProblem(p.bare)].filter(Boolean).join('; ');
      report.add(`Month of slots, ${label}`, 'throughput', p.target.reqPerSec, 'req/s', undefined, problem && `INVALID: ${problem}`);
      report.add(`Month of slots, ${label}`, 'bare Fastify, same slots', p.bare.reqPerSec, 'req/s');
      report.add(`Month of slots, ${label}`, 'ratio slots/bare', p.ratio, '');
      report.add(
        `Month of slots, ${label}`,
        'p95 latency',
        p.target.p95Ms,
        'ms',
        problem ? undefined : { max: TARGETS.p95Ms },
        `p50 ${p.target.p50Ms.toFixed(1)} ms, p99 ${p.target.p99Ms.toFixed(1)} ms`,
      );
    } catch (err) {
      console.log(`  ✗ ${label}: ${errorMessage(err).split('\n')[0]}`);
      report.fail(`Month of slots, ${label}`, err);
    }
  }
  report.details.clinic = clinic;
}

await runBench(main, { report, config: cfg, resultsFile, sharing: 'the load generator and the servers' });
