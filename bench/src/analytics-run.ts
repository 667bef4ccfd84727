// `npm run bench:analytics` (issue 28): the statistics on the calendar bench's clinic (50 therapists,
// 20,000 patients, 300,000 sessions over two years, plus invoices) on PostgreSQL — the dashboard and each
// tab for 30 days, 12 months and the whole history, workspace-wide and for one therapist — and on a
// freelance practice (1,500 sessions a year for 5 years) on PGlite, each case at BENCH_CONNECTIONS against
// the bare Fastify route in alternating slices; on PGlite also how long one statistics request keeps the
// server from answering anything else; and the statements' plans. Prints a table and writes
// bench/results/analytics.json. The route's JavaScript is measured elsewhere (the web bench).
import { existsSync } from 'node:fs';
import pg from 'pg';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { ANALYTICS_TABS, presetPeriod, shiftDay, todayIn, type AnalyticsTab, type Period } from '@divan/core';
import { analyticsDataset, keepSession, type AnalyticsData } from './analytics-data';
import { explainStatistics } from './analytics-plans';
import { CALENDAR_TZ } from './calendar-data';
import { refreshSession, type Dataset } from './dataset';
import { chooseGenerator, loadProblem, measurePair, type Endpoint, type Pair } from './load';
import { Report } from './report';
import { runBench } from './run-bench';
import { readLoopProbe, resetLoopProbe, startBare, type Managed } from './servers';
import { envInt, errorMessage, root, serverMain, sleep } from './util';

const cfg = {
  durationSec: envInt('BENCH_DURATION', 10),
  warmupSec: envInt('BENCH_WARMUP', 3, 0),
  rounds: envInt('BENCH_ROUNDS', 2),
  connections: envInt('BENCH_CONNECTIONS', 50),
  adminUrl: process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  therapists: envInt('BENCH_THERAPISTS', 50),
  patients: envInt('BENCH_PATIENTS', 20_000),
  sessions: envInt('BENCH_SESSIONS', 300_000),
  weeks: envInt('BENCH_WEEKS', 104),
  freelancePatients: envInt('BENCH_FREELANCE_PATIENTS', 300),
  freelanceSessionsPerYear: envInt('BENCH_FREELANCE_SESSIONS_PER_YEAR', 1_500),
  freelanceYears: envInt('BENCH_FREELANCE_YEARS', 5),
  probeSec: envInt('BENCH_PROBE_SECONDS', 5, 0),
  skip: (process.env.BENCH_SKIP ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
};
/** Issue 28: p95 < 50 ms on PostgreSQL at 50 connections; < 150 ms on PGlite, and no request holding the others > 50 ms. */
const TARGETS = { postgresP95Ms: 50, pgliteP95Ms: 150, blockMs: 50 };
const resultsFile = resolve(root, 'bench/results/analytics.json');

const report = new Report();
// The tabs' answers are a few KB: wrk for its p95 (merged quantiles), autocannon without it (p95 then NaN).
const generator = chooseGenerator('wrk');
const load = { connections: cfg.connections, durationSec: cfg.durationSec, warmupSec: cfg.warmupSec, rounds: cfg.rounds, generator };
const step = (msg: string) => console.log(`→ ${msg}`);
const BROWSER = { 'accept-encoding': 'gzip, deflate, br' };

type Scope = 'workspace' | 'one therapist';
type Case = { tab: AnalyticsTab | 'dashboard'; period?: { name: string } & Period; scope: Scope };
type Measured = Case & { label: string; pair: Pair; single: { ms: number; bytes: number }; block?: Block };
type Block = {
  loopMaxMs: number;
  loopP99Ms: number;
  gcMaxMs: number;
  probes: number;
  maxMs: number;
  p99Ms: number;
  requests: number;
  requestP50Ms: number;
  requestMaxMs: number;
};

const skipped = (...tags: string[]) => tags.some((t) => cfg.skip.includes(t));

async function section(title: string, fn: () => Promise<void>) {
  if (skipped(title.split(' ')[0]!.toLowerCase())) return report.skip(title, 'BENCH_SKIP');
  try {
    await fn();
  } catch (err) {
    console.log(`  ✗ ${title}: ${errorMessage(err).split('\n')[0]}`);
    report.fail(title, err);
  }
}

/** 30 days, 12 months (365 days to today) and the whole history (first to last session, past and booked). */
function periods(data: AnalyticsData): ({ name: string } & Period)[] {
  const today = todayIn(CALENDAR_TZ);
  return [
    { name: '30 days', ...presetPeriod('last_30_days', today) },
    { name: '12 months', from: shiftDay(today, -364), to: today },
    { name: 'whole history', from: data.firstDay, to: data.lastDay },
  ];
}

function casesOf(data: AnalyticsData, scopes: Scope[]): Case[] {
  const out: Case[] = [{ tab: 'dashboard', scope: 'workspace' }];
  for (const tab of ANALYTICS_TABS) for (const period of periods(data)) for (const scope of scopes) out.push({ tab, period, scope });
  const tag = (c: Case) => [c.tab, c.scope === 'workspace' ? 'workspace' : 'one', c.period?.name.split(' ')[0] ?? 'dashboard'];
  return out.filter((c) => !skipped(...tag(c)));
}

function endpoint(ds: Dataset, data: AnalyticsData, c: Case): Endpoint {
  const base = `${ds.server.url}/api/v1/workspaces/${data.workspaceId}/analytics/${c.tab}`;
  const q = new URLSearchParams();
  if (c.period) {
    q.set('from', c.period.from);
    q.set('to', c.period.to);
  }
  if (c.scope === 'one therapist') q.set('therapistId', data.oneTherapistId);
  const qs = q.toString();
  return { url: qs ? `${base}?${qs}` : base, headers: { authorization: `Bearer ${ds.session.accessToken}`, ...BROWSER } };
}

const labelOf = (c: Case) => (c.tab === 'dashboard' ? 'dashboard' : `${c.tab} · ${c.period!.name} · ${c.scope}`);

/**
 * wrk stops with its connections' requests still queued in the server: wait until they are answered
 * (GET /health fast three times in a row, at most 60 s), so the next measurement starts on an idle server.
 */
async function settle(ds: Dataset): Promise<void> {
  const deadline = performance.now() + 300_000;
  let fast = 0;
  while (fast < 3) {
    if (performance.now() > deadline) throw new Error('the server was still busy 5 minutes after the last load: not measured');
    const t = performance.now();
    try {
      await (await fetch(`${ds.server.url}/api/v1/health`, { signal: AbortSignal.timeout(10_000) })).arrayBuffer();
      fast = performance.now() - t < 20 ? fast + 1 : 0;
    } catch {
      fast = 0;
    }
    await sleep(20);
  }
}

/**
 * The sessions' and invoices' summaries of months (decision 0027) are refreshed by the server's job at start: measure
 * after it, as a clinic's server reads it all day. On PostgreSQL the stale marks are watched until none
 * is left (at most 5 minutes); PGlite's data dir is the server's alone, so there the server idle again
 * (`settle`) is the sign.
 */
async function summaryReady(ds: Dataset): Promise<void> {
  if (!ds.databaseUrl) return settle(ds);
  const client = new pg.Client({ connectionString: ds.databaseUrl });
  await client.connect();
  try {
    const deadline = performance.now() + 300_000;
    for (;;) {
      const { rows } = await client.query<{ n: number }>(
        'select ((select count(*) from session_stats_dirty) + (select count(*) from invoice_stats_dirty))::int as n',
      );
      if (rows[0]!.n === 0) return;
      if (performance.now() > deadline) throw new Error(`${rows[0]!.n} stale months 5 minutes after the start: not measured`);
      await sleep(500);
    }
  } finally {
    await client.end();
  }
}

/** One request alone: it must answer 200 (a failing case stops with the server's answer); its time and size. */
async function single(e: Endpoint): Promise<{ ms: number; bytes: number }> {
  const t = performance.now();
  const res = await fetch(e.url, { headers: { ...e.headers, 'accept-encoding': 'identity' }, signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  const ms = performance.now() - t;
  if (!res.ok) throw new Error(`${e.url} answered ${res.status}: ${text.slice(0, 300)}`);
  return { ms, bytes: Buffer.byteLength(text) };
}

const quantile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((s.length * p) / 100) - 1)]! : NaN;
};

/**
 * How long one statistics request keeps the server from answering anything else: one client asks for
 * `target` again and again (always one in flight) while another asks for the cheap GET /api/v1/health
 * again and again. The hold is the server's own longest event-loop delay over the window (its loop probe,
 * bench/src/loop-probe.mjs; PGlite runs in the server's process), with its longest GC pause beside it;
 * the slowest health answer is reported too, but it also counts the bench's own stalls on a shared
 * machine. With `target` undefined: the health route alone, the floor.
 */
async function blockProbe(server: Managed, target: Endpoint | undefined, seconds: number): Promise<Block> {
  const health = `${server.url}/api/v1/health`;
  await resetLoopProbe(server);
  const until = performance.now() + seconds * 1000;
  const probes: number[] = [];
  const requests: number[] = [];
  const loop = async (e: Endpoint, into: number[]) => {
    while (performance.now() < until) {
      const t = performance.now();
      const res = await fetch(e.url, { headers: e.headers, signal: AbortSignal.timeout(30_000) });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${e.url} answered ${res.status}`);
      into.push(performance.now() - t);
    }
  };
  await Promise.all([loop({ url: health }, probes), target ? sleep(5).then(() => loop(target, requests)) : undefined]);
  const held = await readLoopProbe(server);
  return {
    loopMaxMs: held.maxMs,
    loopP99Ms: held.p99Ms,
    gcMaxMs: held.gcMaxMs,
    probes: probes.length,
    maxMs: Math.max(...probes),
    p99Ms: quantile(probes, 99),
    requests: requests.length,
    requestP50Ms: quantile(requests, 50),
    requestMaxMs: requests.length ? Math.max(...requests) : NaN,
  };
}

async function runCases(
  title: string,
  ds: Dataset,
  data: AnalyticsData,
  bare: Managed,
  scopes: Scope[],
  p95Max: number,
  withBlock: boolean,
): Promise<Measured[]> {
  const out: Measured[] = [];
  await summaryReady(ds);
  let refreshed = performance.now();
  for (const c of casesOf(data, scopes)) {
    const label = labelOf(c);
    try {
      // Access tokens live 15 minutes; a run of every case takes longer.
      if (performance.now() - refreshed > 5 * 60_000) {
        await refreshSession(ds.server.url, ds.session);
        keepSession(ds);
        refreshed = performance.now();
      }
      const e = endpoint(ds, data, c);
      await settle(ds);
      const one = await single(e);
      step(`${title} · ${label}: ${cfg.warmupSec} s warm-up each, then ${cfg.durationSec} s each with the baseline, alternating`);
      const pair = await measurePair(e, { url: `${bare.url}/` }, load);
      const m: Measured = { ...c, label, pair, single: { ms: one.ms, bytes: one.bytes } };
      const problem = [loadProblem(pair.target), loadProblem(pair.bare)].filter(Boolean).join('; ');
      const t = pair.target;
      report.add(
        title,
        `${label}: p95`,
        t.p95Ms,
        'ms',
        problem ? undefined : { max: p95Max },
        problem
          ? `INVALID: ${problem}`
          : `p50 ${t.p50Ms.toFixed(1)}, p99 ${t.p99Ms.toFixed(1)} ms; ${t.reqPerSec.toFixed(0)} req/s; bare ${pair.bare.reqPerSec.toFixed(0)} req/s; ratio ${pair.ratio.toFixed(4)}; alone ${one.ms.toFixed(0)} ms, ${(one.bytes / 1024).toFixed(1)} KB`,
      );
      if (withBlock && cfg.probeSec > 0) {
        await settle(ds);
        const b = (m.block = await blockProbe(ds.server, e, cfg.probeSec));
        report.add(
          title,
          `${label}: longest hold of the others`,
          b.loopMaxMs,
          'ms',
          { max: TARGETS.blockMs },
          `the server's longest event-loop delay (p99 ${b.loopP99Ms.toFixed(1)} ms; longest GC pause ${b.gcMaxMs.toFixed(1)} ms); slowest of ${b.probes} GET /health beside it ${b.maxMs.toFixed(1)} ms (p99 ${b.p99Ms.toFixed(1)}); the statistics request itself ${b.requestP50Ms.toFixed(1)} ms p50, ${b.requestMaxMs.toFixed(0)} ms max over ${b.requests}`,
        );
      }
      out.push(m);
      report.details[`${title}: ${label}`] = m;
    } catch (err) {
      console.log(`  ✗ ${title} · ${label}: ${errorMessage(err).split('\n')[0]}`);
      const log = ds.server.output.trim().split('\n').slice(-10).join('\n    ');
      if (log) console.log(`    server's last lines:\n    ${log}`);
      report.fail(`${title}: ${label}`, err);
    }
  }
  return out;
}

/** The measured cases as a Markdown table (the README's "Measured"). */
function table(title: string, rows: Measured[], p95Max: number): string {
  const f = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '—');
  const withBlock = rows.some((r) => r.block);
  const head = [
    'case',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'req/s',
    'bare req/s',
    'ratio',
    `p95 < ${p95Max}`,
    ...(withBlock ? ['held the loop (max ms)', 'longest GC (ms)', 'slowest /health (ms)'] : []),
  ];
  const lines = rows.map((r) => {
    const t = r.pair.target;
    const problem = [loadProblem(t), loadProblem(r.pair.bare)].filter(Boolean).join('; ');
    if (problem)
      return [
        r.label,
        `INVALID: ${problem} (alone ${f(r.single.ms, 0)} ms)`,
        '',
        '',
        '',
        f(r.pair.bare.reqPerSec, 0),
        '',
        '**FAIL**',
        ...(withBlock ? [r.block ? f(r.block.loopMaxMs) : '—', r.block ? f(r.block.gcMaxMs) : '—', r.block ? f(r.block.maxMs) : '—'] : []),
      ];
    return [
      r.label,
      f(t.p50Ms),
      f(t.p95Ms),
      f(t.p99Ms),
      f(t.reqPerSec, 0),
      f(r.pair.bare.reqPerSec, 0),
      f(r.pair.ratio, 4),
      t.p95Ms < p95Max ? 'PASS' : '**FAIL**',
      // (the row's «alone» is in the report's note)
      ...(withBlock
        ? r.block
          ? [`${f(r.block.loopMaxMs)} ${r.block.loopMaxMs < TARGETS.blockMs ? 'PASS' : '**FAIL**'}`, f(r.block.gcMaxMs), f(r.block.maxMs)]
          : ['—', '—', '—']
        : []),
    ];
  });
  return [
    `### ${title}`,
    '',
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...lines.map((l) => `| ${l.join(' | ')} |`),
  ].join('\n');
}

function datasetRows(title: string, data: AnalyticsData) {
  report.add(
    title,
    'sessions',
    data.sessions,
    '',
    undefined,
    `${data.therapistIds.length} therapists, ${data.patients} patients, ${data.invoices} invoices, ${data.ended} ended treatments; ${data.firstDay} … ${data.lastDay}; ${data.fromCache ? `from the cache (generated in ${data.seconds.toFixed(0)} s)` : `generated in ${data.seconds.toFixed(0)} s`}`,
  );
}

async function main() {
  if (!existsSync(serverMain)) throw new Error('apps/server/dist/main.js is missing: run `npm run build -w apps/server` first');
  console.log(`Diván statistics bench — ${cpus().length} cores, Node ${process.version}`);
  console.log(
    `Load generator: ${generator}${generator === 'wrk' ? ' (one thread, its own process)' : ' (in this process: no p95; install wrk)'}. The figure to compare across machines is the ratio to the bare Fastify route, measured in the same slots.`,
  );
  report.details.loadGenerator = generator;
  report.details.loadAverageAtStart = loadavg();
  if (loadavg()[0]! > 0.5)
    console.log(`Warning: load average ${loadavg()[0]!.toFixed(2)} at start — other processes compete for the CPU, figures will be noisy.`);
  console.log('');
  const bare = await startBare();
  const markdown: string[] = [];

  await section('PostgreSQL', async () => {
    step(
      `the clinic on PostgreSQL: ${cfg.therapists} therapists, ${cfg.patients} patients, ${cfg.sessions} sessions over ${cfg.weeks} weeks`,
    );
    const { ds, data } = await analyticsDataset(
      'postgres',
      { therapists: cfg.therapists, patients: cfg.patients, sessions: cfg.sessions, weeks: cfg.weeks },
      cfg.adminUrl,
      step,
    );
    try {
      report.details.clinic = data;
      datasetRows('PostgreSQL · dataset', data);
      const title = `PostgreSQL · clinic · ${cfg.connections} connections`;
      const rows = await runCases(title, ds, data, bare, ['workspace', 'one therapist'], TARGETS.postgresP95Ms, false);
      markdown.push(table(title, rows, TARGETS.postgresP95Ms));
      if (!skipped('plans')) {
        const whole = periods(data).find((p) => p.name === 'whole history')!;
        for (const [name, therapistId] of [
          ['whole history · workspace', undefined],
          ['whole history · one therapist', data.oneTherapistId],
        ] as const) {
          const plans = await explainStatistics(ds.databaseUrl!, data.workspaceId, whole, therapistId);
          report.details[`plans: ${name}`] = plans;
          for (const p of plans) {
            report.add(`Plans · ${name}`, p.statement, p.executionMs, 'ms', undefined, p.scans.join('; '));
            if (p.executionMs > 10)
              console.log(`\nEXPLAIN (ANALYZE, BUFFERS) ${p.statement} (${name}):\n  ${p.sql}\n  ${p.lines.join('\n  ')}`);
          }
        }
      }
    } finally {
      await ds.server.stop();
    }
  });

  await section('PGlite', async () => {
    const weeks = cfg.freelanceYears * 52;
    const sessions = cfg.freelanceSessionsPerYear * cfg.freelanceYears;
    step(
      `the freelance practice on PGlite: ${cfg.freelancePatients} patients, ${sessions} sessions over ${cfg.freelanceYears} years up to this week`,
    );
    const { ds, data } = await analyticsDataset(
      'pglite',
      { therapists: 1, patients: cfg.freelancePatients, sessions, weeks, pastWeeks: weeks - 1, practice: 'freelance' },
      cfg.adminUrl,
      step,
    );
    try {
      report.details.freelance = data;
      datasetRows('PGlite · dataset', data);
      const floor = await blockProbe(ds.server, undefined, Math.max(1, Math.min(cfg.probeSec, 3)));
      report.add(
        'PGlite · dataset',
        'GET /health alone: longest event-loop delay',
        floor.loopMaxMs,
        'ms',
        undefined,
        `the probe's floor: p99 ${floor.loopP99Ms.toFixed(1)} ms, longest GC pause ${floor.gcMaxMs.toFixed(1)} ms; slowest of ${floor.probes} GET /health ${floor.maxMs.toFixed(1)} ms (p99 ${floor.p99Ms.toFixed(1)})`,
      );
      const title = `PGlite · freelance · ${cfg.connections} connections`;
      // One therapist is the whole practice: the workspace-wide read is the one measured.
      const rows = await runCases(title, ds, data, bare, ['workspace'], TARGETS.pgliteP95Ms, true);
      markdown.push(table(title, rows, TARGETS.pgliteP95Ms));
    } finally {
      await ds.server.stop();
    }
  });

  report.details.markdown = markdown.join('\n\n');
  if (markdown.length) console.log(`\n${markdown.join('\n\n')}\n`);
}

await runBench(main, { report, config: cfg, resultsFile, sharing: 'the load generator, PostgreSQL and the servers' });
