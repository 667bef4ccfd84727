// `npm run bench:invoices` (issue 11): issuing invoices on PostgreSQL for ONE issuer — one series, one
// VERI*FACTU chain, so every issue queues on the same counter and chain-head rows by design — at
// BENCH_CONNECTIONS clients, each POST …/invoices/:id/issue naming another draft, against the bare Fastify
// route in alternating slices (same wrk, same Lua script); then a batch of 1,000 invoices (one per patient,
// a month of sessions each), from POST to done. Afterwards the series and the chain are checked end to
// end, so a fast wrong result cannot pass. Prints a table and writes bench/results/invoices.json.
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import type { InvoiceBatch } from '@divan/core';
import { createDataset, refreshSession, type Dataset } from './dataset';
import { checkBatch, checkSeries, explainLookups, seedPractice, type Practice, type SeriesCheck } from './invoices-data';
import { Drafts, issuePair, settledIssued } from './invoices-load';
import { loadProblem, merge } from './load';
import { cpuDuring } from './proc-cpu';
import { Report } from './report';
import { runBench } from './run-bench';
import { startBare, type Managed } from './servers';
import { envInt, errorMessage, root, serverMain, sleep } from './util';
import { hasWrk } from './wrk';

const cfg = {
  durationSec: envInt('BENCH_DURATION', 10),
  warmupSec: envInt('BENCH_WARMUP', 3, 0),
  rounds: envInt('BENCH_ROUNDS', 2),
  connections: envInt('BENCH_CONNECTIONS', 50),
  singleSec: envInt('BENCH_SINGLE_SECONDS', 5, 0),
  adminUrl: process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  patients: envInt('BENCH_INVOICE_PATIENTS', 1000),
  drafts: envInt('BENCH_INVOICE_DRAFTS', 30_000),
  batchInvoices: envInt('BENCH_BATCH_INVOICES', 1000),
  sessionsPerInvoice: envInt('BENCH_BATCH_SESSIONS', 4),
  skip: (process.env.BENCH_SKIP ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
};
const TARGETS = { issuedPerSec: 200, batchSec: 10 };
const resultsFile = resolve(root, 'bench/results/invoices.json');

const report = new Report();
const step = (msg: string) => console.log(`→ ${msg}`);
/** The server under test, whose last log lines are printed under a part that failed. */
let server: Managed | undefined;

async function section(title: string, fn: () => Promise<void>) {
  if (cfg.skip.includes(title.split(' ')[0]!.toLowerCase())) return report.skip(title, 'BENCH_SKIP');
  try {
    await fn();
  } catch (err) {
    console.log(`  ✗ ${title}: ${errorMessage(err).split('\n')[0]}`);
    const log = server?.output.trim().split('\n').slice(-15).join('\n    ');
    if (log) console.log(`    server's last lines:\n    ${log}`);
    report.fail(title, err);
  }
}

const refresh = (ds: Dataset) => refreshSession(ds.server.url, ds.session);

async function call<T>(ds: Dataset, method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const res = await fetch(`${ds.server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ds.session.accessToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return { status: res.status, json: JSON.parse(text) as T };
}

/** POST the batch, then poll it every 100 ms until it is done or failed: the wall time from the POST. */
async function runBatch(
  ds: Dataset,
  W: string,
  period: { from: string; to: string },
): Promise<{ batch: InvoiceBatch; startedMs?: number; wallSec: number }> {
  const t1 = performance.now();
  const created = await call<InvoiceBatch>(ds, 'POST', W, period);
  if (created.status !== 202) throw new Error(`the batch answered ${created.status}`);
  let batch = created.json;
  let startedMs: number | undefined;
  let progressAt = t1;
  while (batch.status !== 'done' && batch.status !== 'failed') {
    if (performance.now() - progressAt > 60_000)
      throw new Error(`the batch is still ${batch.status} (${batch.done}/${batch.total}) with no progress for 60 s`);
    await sleep(100);
    const done = batch.done;
    batch = (await call<InvoiceBatch>(ds, 'GET', `${W}/${created.json.id}`)).json;
    if (batch.done !== done) progressAt = performance.now();
    if (startedMs === undefined && batch.status !== 'queued') startedMs = performance.now() - t1;
  }
  return { batch, startedMs, wallSec: (performance.now() - t1) / 1000 };
}

/** The checks as rows: each a count of faults, which must be 0. */
function reportSeries(title: string, s: SeriesCheck, expected: number | undefined) {
  const none = { max: 0, inclusive: true };
  report.add(
    title,
    'issued, numbered 1…N',
    s.issued,
    'invoices',
    expected === undefined ? undefined : { min: expected },
    expected === undefined ? undefined : `the database holds what was answered`,
  );
  report.add(
    title,
    'numbers out of place (gap, duplicate, format)',
    s.numberingFaults + Math.abs(s.counterLast - s.issued),
    '',
    none,
    `counter at ${s.counterLast}`,
  );
  report.add(title, 'chain breaks (position, previous fingerprint)', s.chainBreaks, '', none, `${s.records} records`);
  report.add(title, 'fingerprints not recomputed', s.badFingerprints, '', none, "the AEAT's huella of each record's own fields");
  report.add(title, 'invoices ↔ records unmatched', s.unmatched, '', none);
}

async function main() {
  if (!existsSync(serverMain)) throw new Error('apps/server/dist/main.js is missing: run `npm run build -w apps/server` first');
  if (!hasWrk())
    throw new Error(
      'wrk is not installed (apt-get install wrk): the issuing runs need its Lua scripting to name a different draft per request',
    );
  console.log(`Diván invoicing bench — ${cpus().length} cores, Node ${process.version}`);
  console.log(
    'Load generator: wrk (one thread, its own process, a Lua script naming a different draft per request; the bare route through the same script). It and the server share the machine: the figure to compare is the ratio to the bare Fastify route, measured in the same slots.',
  );
  report.details.loadAverageAtStart = loadavg();
  if (loadavg()[0]! > 0.5)
    console.log(`Warning: load average ${loadavg()[0]!.toFixed(2)} at start — other processes compete for the CPU, figures will be noisy.`);
  console.log('');

  const bare = await startBare();
  step('a fresh PostgreSQL database, the therapist signed up through the API');
  const ds: Dataset = await createDataset('postgres', { users: 1, adminUrl: cfg.adminUrl, concurrency: 1 });
  const databaseUrl = ds.databaseUrl!;
  server = ds.server;
  let practice: Practice | undefined;
  await section('Dataset', async () => {
    step(
      `${cfg.patients} patients, the therapist's billing data, ${cfg.drafts} drafts, ${cfg.batchInvoices} × ${cfg.sessionsPerInvoice} completed sessions for the batch`,
    );
    practice = await seedPractice(ds, {
      patients: cfg.patients,
      drafts: cfg.drafts,
      batchInvoices: cfg.batchInvoices,
      sessionsPerInvoice: cfg.sessionsPerInvoice,
    });
    const { draftIds, batch, seconds, ...rest } = practice;
    report.details.practice = { ...rest, drafts: draftIds.length, batch };
    report.add(
      'Dataset',
      'drafts ready to issue',
      draftIds.length,
      '',
      undefined,
      `one issuer (NIF ${practice.taxId}), ${practice.patients} patients as buyers; written in ${seconds.toFixed(0)} s`,
    );
    report.add(
      'Dataset',
      'batch: completed sessions',
      batch.sessions,
      '',
      undefined,
      `${batch.invoices} patients, ${batch.from} … ${batch.to}`,
    );
  });
  if (!practice) return;
  const p = practice;
  const auth = () => ({ authorization: `Bearer ${ds.session.accessToken}` });
  const drafts = new Drafts(p, ds.server, auth);
  let bareRate: number | undefined;

  await section('Issue (one issuer)', async () => {
    await refresh(ds);
    const number = await drafts.issueOne(async (path) => (await call<{ number: string | null }>(ds, 'POST', path)).json);
    step(`one draft issued through the API first: ${number}`);
    step(
      `issuing: ${cfg.warmupSec} s warm-up each, then ${cfg.durationSec} s each of it and the baseline, alternating, at ${cfg.connections} connections`,
    );
    const issued0 = await settledIssued(databaseUrl, p.sellerKey);
    const {
      result: pair,
      serverMs,
      postgresMs,
    } = await cpuDuring(databaseUrl, ds.server.serverPid(), async () => {
      const pair = await issuePair(drafts, bare, auth(), cfg);
      await settledIssued(databaseUrl, p.sellerKey);
      return pair;
    });
    const issuedNow = (await settledIssued(databaseUrl, p.sellerKey)) - issued0;
    bareRate = pair.bare.reqPerSec;
    report.details.issue = { ...pair, issued: issuedNow, serverCpuMs: serverMs, postgresCpuMs: postgresMs };
    const problem = [
      loadProblem(pair.target),
      loadProblem(pair.bare),
      drafts.exhausted && `the drafts ran out: raise BENCH_INVOICE_DRAFTS (${cfg.drafts})`,
    ]
      .filter(Boolean)
      .join('; ');
    const label = `Issue · ${cfg.connections} connections`;
    report.add(
      label,
      'issued',
      pair.target.reqPerSec,
      '/s',
      problem ? undefined : { min: TARGETS.issuedPerSec },
      problem ? `INVALID: ${problem}` : `${pair.target.total} in ${pair.target.seconds.toFixed(0)} s`,
    );
    report.add(label, 'bare Fastify, same slots', pair.bare.reqPerSec, 'req/s', undefined, `p99 ${pair.bare.p99Ms.toFixed(1)} ms`);
    report.add(label, 'ratio issue/bare', pair.ratio, '', undefined, `${pair.ratio.toFixed(4)}; reported (no target in the issue)`);
    report.add(
      label,
      'p50 latency',
      pair.target.p50Ms,
      'ms',
      undefined,
      `≈ ${cfg.connections} connections / issued per s (each waits its turn)`,
    );
    report.add(label, 'p99 latency', pair.target.p99Ms, 'ms', undefined, 'worst slice; no target in the issue');
    report.add(
      label,
      'server CPU per issue',
      serverMs / issuedNow,
      'ms',
      undefined,
      `the node process, warm-ups included: one process issues at most ${(1000 / (serverMs / issuedNow)).toFixed(0)}/s on a core of its own`,
    );
    report.add(label, 'PostgreSQL CPU per issue', postgresMs / issuedNow, 'ms', undefined, "the database's backends");
  });

  await section('Single (one connection)', async () => {
    if (!cfg.singleSec) return report.skip('Issue · 1 connection', 'BENCH_SINGLE_SECONDS=0');
    await refresh(ds);
    step(`issuing at 1 connection for ${cfg.singleSec} s: one issue's own time, nothing queued`);
    const issued0 = await settledIssued(databaseUrl, p.sellerKey);
    const {
      result: slice,
      serverMs,
      postgresMs,
    } = await cpuDuring(databaseUrl, ds.server.serverPid(), () => drafts.issue(1, cfg.singleSec));
    const issuedNow = (await settledIssued(databaseUrl, p.sellerKey)) - issued0;
    const one = merge('POST …/invoices/:id/issue', [slice]);
    report.details.single = { ...one, serverCpuMs: serverMs, postgresCpuMs: postgresMs };
    const problem = loadProblem(one) ?? (drafts.exhausted ? 'the drafts ran out' : undefined);
    report.add(
      'Issue · 1 connection',
      'issued',
      one.reqPerSec,
      '/s',
      undefined,
      problem ? `INVALID: ${problem}` : 'informational: the serial cost of one issue',
    );
    report.add('Issue · 1 connection', 'p50 latency', one.p50Ms, 'ms', undefined, `p99 ${one.p99Ms.toFixed(1)} ms`);
    report.add(
      'Issue · 1 connection',
      'server / PostgreSQL CPU per issue',
      serverMs / issuedNow,
      'ms',
      undefined,
      `PostgreSQL ${(postgresMs / issuedNow).toFixed(1)} ms; the rest of the latency is waiting (round trips, the machine's other work)`,
    );
  });

  await section('Issue correctness', async () => {
    if (!drafts.taken) return report.skip('Issue correctness', 'nothing issued');
    const issued = await settledIssued(databaseUrl, p.sellerKey);
    const s = await checkSeries(databaseUrl, p);
    report.details.issueCheck = { ...s, answered2xx: drafts.answered, draftsTaken: drafts.taken };
    reportSeries('Issue correctness', s, drafts.answered);
    // Every answered issue is in the database, and nothing was issued that no request named.
    report.add(
      'Issue correctness',
      'issued beyond the drafts named',
      Math.max(0, issued - drafts.taken),
      '',
      { max: 0, inclusive: true },
      `${drafts.answered} answered 200, ${drafts.taken} named, ${issued} issued`,
    );
  });

  await section('Batch (1,000 invoices)', async () => {
    await refresh(ds);
    const W = `/api/v1/workspaces/${p.workspaceId}/invoice-batches`;
    const period = { from: p.batch.from, to: p.batch.to };
    const before = await settledIssued(databaseUrl, p.sellerKey);
    step(`batch: preview, then POST and poll every 100 ms until done (${p.batch.invoices} invoices, ${p.batch.sessions} sessions)`);
    const t0 = performance.now();
    const preview = await call<{ invoices: number; sessions: number; totalCents: number }>(ds, 'POST', `${W}/preview`, period);
    const previewMs = performance.now() - t0;
    if (preview.json.invoices !== p.batch.invoices || preview.json.sessions !== p.batch.sessions)
      throw new Error(
        `the preview shows ${preview.json.invoices} invoices of ${preview.json.sessions} sessions, ${p.batch.invoices} of ${p.batch.sessions} were written`,
      );
    const measured = await cpuDuring(databaseUrl, ds.server.serverPid(), () => runBatch(ds, W, period));
    const { batch, startedMs, wallSec } = measured.result;
    report.details.batch = {
      previewMs,
      wallSec,
      startedMs,
      total: batch.total,
      done: batch.done,
      errors: batch.errors.length,
      invoices: batch.invoiceIds.length,
      serverCpuMs: measured.serverMs,
      postgresCpuMs: measured.postgresMs,
    };
    const ok = batch.status === 'done' && batch.errors.length === 0 && batch.invoiceIds.length === p.batch.invoices;
    const rate = batch.invoiceIds.length / wallSec;
    const label = `Batch · ${p.batch.invoices} invoices`;
    report.add(label, 'preview', previewMs, 'ms', undefined, `${preview.json.invoices} invoices, ${preview.json.sessions} sessions`);
    report.add(
      label,
      'POST → done',
      wallSec,
      's',
      ok ? { max: TARGETS.batchSec } : undefined,
      ok
        ? `picked up by the job runner after ${((startedMs ?? 0) / 1000).toFixed(1)} s (pg-boss polls every 2 s)`
        : `INVALID: ${batch.status}, ${batch.invoiceIds.length} issued, ${batch.errors.length} errors: ${batch.errors[0]?.message ?? ''}`,
    );
    report.add(label, 'invoices issued', rate, '/s', undefined, `${cfg.sessionsPerInvoice} lines each`);
    if (bareRate)
      report.add(
        label,
        'ratio batch invoices/s / bare req/s',
        rate / bareRate,
        '',
        undefined,
        `${(rate / bareRate).toFixed(4)}; reported, bare from the issuing slots of this run`,
      );
    const n = Math.max(1, batch.invoiceIds.length);
    report.add(
      label,
      'server / PostgreSQL CPU per invoice',
      measured.serverMs / n,
      'ms',
      undefined,
      `PostgreSQL ${(measured.postgresMs / n).toFixed(1)} ms; the job issues them in chunks of 25 per transaction: checked, the drafts written together, then each issued in one statement`,
    );
    const c = await checkBatch(databaseUrl, p.workspaceId, batch.invoiceIds, period);
    const s = await checkSeries(databaseUrl, p);
    report.details.batchCheck = { ...c, ...s };
    report.add('Batch correctness', 'invoices issued by the batch', c.issued, '', { min: p.batch.invoices }, `${c.lines} session lines`);
    report.add('Batch correctness', 'sessions of the period left uninvoiced', c.sessionsLeft, '', { max: 0, inclusive: true });
    reportSeries('Batch correctness', s, before + p.batch.invoices);
  });

  await section('Plans', async () => {
    const plans = await explainLookups(databaseUrl, p.sellerKey);
    report.details.plans = plans;
    for (const [which, lines] of Object.entries(plans)) {
      const scan = lines.map((l) => /(Index(?: Only)? Scan|Bitmap Index Scan|Seq Scan)(?: using (\S+))? on (\S+)/.exec(l)).find(Boolean);
      const exec = lines.map((l) => /Execution Time: ([\d.]+) ms/.exec(l)).find(Boolean);
      report.add(
        'Lookup plans',
        which,
        Number(exec?.[1] ?? NaN),
        'ms',
        undefined,
        scan ? `${scan[1]}${scan[2] ? ` using ${scan[2]}` : ''} on ${scan[3]}` : 'no scan found',
      );
      console.log(`\nEXPLAIN ANALYZE, ${which}:\n  ${lines.join('\n  ')}`);
    }
  });
}

await runBench(main, { report, config: cfg, resultsFile, sharing: 'the load generator, PostgreSQL and the server' });
