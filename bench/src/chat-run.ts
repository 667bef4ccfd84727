// `npm run bench:chat` (issue 15): the chat's fan-out across two server processes sharing PostgreSQL and
// Redis. BENCH_CHAT_SOCKETS (1,000) patients, each connected to their file through the real connect flow,
// hold a socket, alternately on server A and server B; a therapist sends messages through A with
// BENCH_CHAT_SENDERS loops. Reported: messages per second, the bare route's requests per second with the
// same client loops in alternating slices (the ratio), and the p95 delivery latency (POST start → the
// patient's socket has the frame), for sockets on A and on B. Every message must reach its patient's
// socket exactly once, so a fast wrong result cannot pass. Then the companion's first-screen JavaScript.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { seedChatPractice, type ChatPractice } from './chat-data';
import { bareRate, openPatientSockets, quantile, sendFanout, type FanoutResult, type Server, type Sockets } from './chat-fanout';
import { measureCompanion } from './companion-bundle';
import { tempDataDir, tempDatabase } from './dataset';
import { Report } from './report';
import { runBench } from './run-bench';
import { startBare, startDivan, type Managed } from './servers';
import { envInt, errorMessage, root, serverMain, sleep } from './util';

const cfg = {
  sockets: envInt('BENCH_CHAT_SOCKETS', 1000),
  senders: envInt('BENCH_CHAT_SENDERS', 16),
  durationSec: envInt('BENCH_DURATION', 10),
  warmupSec: envInt('BENCH_WARMUP', 2, 0),
  rounds: envInt('BENCH_ROUNDS', 2),
  seedConcurrency: envInt('BENCH_SEED_CONCURRENCY', 12),
  adminUrl: process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
};
const TARGETS = { p95Ms: 250, companionKb: 100 };
const resultsFile = resolve(root, 'bench/results/chat.json');
const report = new Report();
const step = (msg: string) => console.log(`→ ${msg}`);

async function startPair(): Promise<[Managed, Managed]> {
  const databaseUrl = await tempDatabase(cfg.adminUrl);
  // One deployment: the same secret (tokens of A valid on B), clinical key and database; Redis carries the events.
  const env = {
    REDIS_URL: cfg.redisUrl,
    APP_SECRET: randomBytes(32).toString('hex'),
    CLINICAL_KEY: randomBytes(32).toString('base64'),
    UPLOAD_RATE_LIMIT: '1000000',
  };
  const a = await startDivan({ dataDir: tempDataDir(), databaseUrl, env });
  const b = await startDivan({ dataDir: tempDataDir(), databaseUrl, env });
  return [a, b];
}

async function fanout(practice: ChatPractice, servers: Server[], sockets: Sockets, bareUrl: string) {
  const run = (seconds: number, tag: string) =>
    sendFanout(servers[0]!, 0, practice.therapist.accessToken, practice.workspaceId, practice.patients, sockets, {
      senders: cfg.senders,
      seconds,
      tag,
    });
  if (cfg.warmupSec) {
    await bareRate(bareUrl, cfg.senders, cfg.warmupSec);
    await run(cfg.warmupSec, 'warmup');
  }
  // Alternating slices (bare, chat, chat, bare…) so a change in the machine's load weighs on both.
  const slice = cfg.durationSec / cfg.rounds;
  const bare: number[] = [];
  const runs: FanoutResult[] = [];
  for (let r = 0; r < cfg.rounds; r++) {
    if (r % 2 === 0) bare.push(await bareRate(bareUrl, cfg.senders, slice));
    runs.push(await run(slice, `m${r}`));
    if (r % 2 === 1) bare.push(await bareRate(bareUrl, cfg.senders, slice));
  }
  if (cfg.rounds % 2 === 1) bare.push(await bareRate(bareUrl, cfg.senders, slice));
  await sleep(1_000); // the last deliveries
  const sent = runs.reduce((n, r) => n + r.sent, 0);
  const seconds = runs.reduce((n, r) => n + r.seconds, 0);
  const bareRps = bare.reduce((a, b) => a + b, 0) / bare.length;
  const same = runs.flatMap((r) => r.latencies.same);
  const other = runs.flatMap((r) => r.latencies.other);
  const perSecond = sent / seconds;

  // Exactly once: every measured message on its patient's socket once, none twice, no error.
  const bodies = [...sockets.received.entries()].filter(([body]) => /^m\d+-/.test(body));
  const twice = bodies.filter(([, n]) => n > 1).length;
  const missing = sent - bodies.length;
  const errors = runs.reduce((n, r) => n + r.errors, 0);
  const S = `Chat fan-out (${cfg.sockets} sockets, 2 processes)`;
  report.add(
    S,
    'messages per second',
    perSecond,
    'msg/s',
    undefined,
    `${sent} messages in ${seconds.toFixed(1)} s, ${cfg.senders} senders`,
  );
  report.add(S, 'bare route, same client', bareRps, 'req/s');
  report.add(S, 'ratio to bare', perSecond / bareRps, '');
  report.add(
    S,
    'p95 delivery, socket on B (other process)',
    quantile(other, 0.95),
    'ms',
    { max: TARGETS.p95Ms },
    `p50 ${quantile(other, 0.5).toFixed(1)} ms, p99 ${quantile(other, 0.99).toFixed(1)} ms, n=${other.length}`,
  );
  report.add(
    S,
    'p95 delivery, socket on A (sending process)',
    quantile(same, 0.95),
    'ms',
    { max: TARGETS.p95Ms },
    `p50 ${quantile(same, 0.5).toFixed(1)} ms, p99 ${quantile(same, 0.99).toFixed(1)} ms, n=${same.length}`,
  );
  report.add(
    S,
    'messages lost, duplicated or refused',
    missing + twice + errors,
    '',
    { max: 0, inclusive: true },
    `lost ${missing}, twice ${twice}, refused ${errors}`,
  );
  report.details.fanout = { sent, seconds, bareSlices: bare, perSecond };
}

async function main() {
  if (!existsSync(serverMain)) throw new Error('apps/server/dist/main.js is missing: run `npm run build -w apps/server` first');
  step('starting two servers on one PostgreSQL database and Redis, and the bare route');
  const [a, b] = await startPair();
  const bare = await startBare();
  const servers: Server[] = [
    { name: 'A', url: a.url },
    { name: 'B', url: b.url },
  ];
  step(`seeding a therapist and ${cfg.sockets} patients connected through the connect flow (through A)`);
  const t0 = performance.now();
  const practice = await seedChatPractice(a.url, cfg.sockets, cfg.seedConcurrency, randomBytes(3).toString('hex'));
  console.log(`  ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  step(`opening ${cfg.sockets} patient sockets, half on each server`);
  const sockets = await openPatientSockets(servers, practice.patients);
  try {
    step(`sending for ${cfg.durationSec} s (${cfg.rounds} slices) with ${cfg.senders} senders through A`);
    await fanout(practice, servers, sockets, bare.url);
  } catch (err) {
    report.fail('Chat fan-out', err);
  } finally {
    sockets.close();
  }
  step('the companion’s first-screen JavaScript');
  try {
    const c = await measureCompanion(a.url);
    for (const p of c.pages)
      report.add(
        'Companion bundle',
        `${p.path} JS (gzip)`,
        p.gzipBytes / 1024,
        'KB',
        { max: TARGETS.companionKb, inclusive: true },
        `${p.files.length} files, ${c.method}`,
      );
  } catch (err) {
    report.skip('Companion bundle', errorMessage(err).split('\n')[0]!);
  }
}

void runBench(main, {
  report,
  config: { ...cfg, cores: cpus().length, loadavg: loadavg() },
  resultsFile,
  sharing: 'the two servers, Redis, PostgreSQL and the bench process (sockets and senders)',
});
