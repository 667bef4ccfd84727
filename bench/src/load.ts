import autocannon from 'autocannon';
import { withTimeout } from './util';
import { hasWrk, runWrk } from './wrk';

export type Endpoint = { url: string; headers?: Record<string, string> };
export type LoadOptions = {
  connections: number;
  durationSec: number;
  warmupSec: number;
  rounds: number;
  /** Which load generator: wrk (when installed) for large answers, autocannon otherwise (see wrk.ts). */
  generator?: Generator;
};
export type Generator = 'wrk' | 'autocannon';

/** `BENCH_LOAD` if set, else `preferred` when it can run here, else autocannon. */
export function chooseGenerator(preferred: Generator): Generator {
  const forced = process.env.BENCH_LOAD;
  if (forced === 'wrk' || forced === 'autocannon') {
    if (forced === 'wrk' && !hasWrk()) throw new Error('BENCH_LOAD=wrk but wrk is not installed (apt-get install wrk)');
    return forced;
  }
  return preferred === 'wrk' && hasWrk() ? 'wrk' : 'autocannon';
}
export type LoadResult = {
  url: string;
  reqPerSec: number;
  /** Request-weighted mean of the slices' p50. */
  p50Ms: number;
  /**
   * p99 of every request of the slices, from each slice's latency quantiles weighted by its requests
   * (wrk); with autocannon, which gives no quantiles to merge, the highest p99 of the slices.
   */
  p99Ms: number;
  /** p95 of every request of the slices (wrk's quantiles); NaN with autocannon. */
  p95Ms: number;
  /** Highest p99 of any one slice. */
  worstSliceP99Ms: number;
  total: number;
  seconds: number;
  non2xx: number;
  errors: number;
  timeouts: number;
};
export type Pair = { target: LoadResult; bare: LoadResult; ratio: number };

/** One slice's figures, whichever generator measured them. */
export type Slice = {
  total: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  quantilesMs?: number[];
};

async function cannon(e: Endpoint, connections: number, durationSec: number, generator: Generator = 'autocannon'): Promise<Slice> {
  if (generator === 'wrk') {
    const r = await runWrk(e.url, e.headers ?? {}, connections, durationSec);
    return {
      total: r.requests,
      seconds: r.durationUs / 1e6,
      p50Ms: r.p50Us / 1000,
      p99Ms: r.p99Us / 1000,
      non2xx: r.non2xx,
      errors: r.errors,
      timeouts: r.timeouts,
      quantilesMs: r.quantilesUs.map((us) => us / 1000),
    };
  }
  const run = autocannon({ url: e.url, headers: e.headers ?? {}, connections, duration: durationSec, timeout: 10 });
  const r = await withTimeout(`load on ${e.url}`, (durationSec + 30) * 1000, run);
  return {
    total: r.requests.total,
    seconds: r.duration,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}

/**
 * The `p`th percentile of all the slices' requests together: each slice's quantiles stand for equal
 * shares of its requests, so a slice with twice the requests weighs twice as much.
 */
export function mergedPercentile(runs: Slice[], p: number): number | undefined {
  if (!runs.length || runs.some((r) => !r.quantilesMs?.length)) return undefined;
  const points = runs
    .flatMap((r) => r.quantilesMs!.map((ms) => ({ ms, weight: r.total / r.quantilesMs!.length })))
    .sort((a, b) => a.ms - b.ms);
  const all = points.reduce((s, x) => s + x.weight, 0);
  let seen = 0;
  for (const x of points) {
    seen += x.weight;
    if (seen >= (all * p) / 100) return x.ms;
  }
  return points.at(-1)!.ms;
}

/** Slices of one target as one result: req/s over their total time, p50 weighted by requests, p99 of all requests. */
export function merge(url: string, runs: Slice[]): LoadResult {
  const total = runs.reduce((s, r) => s + r.total, 0);
  const seconds = runs.reduce((s, r) => s + r.seconds, 0);
  const worstSliceP99Ms = Math.max(...runs.map((r) => r.p99Ms));
  return {
    url,
    reqPerSec: total / seconds,
    p50Ms: runs.reduce((s, r) => s + r.p50Ms * r.total, 0) / Math.max(1, total),
    p99Ms: mergedPercentile(runs, 99) ?? worstSliceP99Ms,
    p95Ms: mergedPercentile(runs, 95) ?? NaN,
    worstSliceP99Ms,
    total,
    seconds,
    non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
    errors: runs.reduce((s, r) => s + r.errors, 0),
    timeouts: runs.reduce((s, r) => s + r.timeouts, 0),
  };
}

/**
 * `target` and the bare baseline under the same load, in alternating slices (bare, target, target, bare, …)
 * so that a change in the machine's load during the run weighs on both alike. Each gets `durationSec` in
 * total after its own warm-up. The load generator runs in this process, each server in its own.
 */
export async function measurePair(target: Endpoint, bare: Endpoint, o: LoadOptions): Promise<Pair> {
  const slice = Math.max(1, Math.round(o.durationSec / o.rounds));
  if (o.warmupSec > 0) {
    await cannon(bare, o.connections, o.warmupSec, o.generator);
    await cannon(target, o.connections, o.warmupSec, o.generator);
  }
  const t: Slice[] = [];
  const b: Slice[] = [];
  for (let i = 0; i < o.rounds; i++) {
    const order: [Endpoint, Slice[]][] =
      i % 2 === 0
        ? [
            [bare, b],
            [target, t],
          ]
        : [
            [target, t],
            [bare, b],
          ];
    for (const [e, into] of order) into.push(await cannon(e, o.connections, slice, o.generator));
  }
  const result = { target: merge(target.url, t), bare: merge(bare.url, b) };
  return { ...result, ratio: result.target.reqPerSec / result.bare.reqPerSec };
}

/** Why a run's figures can't be trusted (error answers, socket errors), or undefined. */
export function loadProblem(r: LoadResult): string | undefined {
  const bad = [
    r.reqPerSec === 0 && 'no request completed',
    r.non2xx && `${r.non2xx} non-2xx`,
    r.errors && `${r.errors} errors`,
    r.timeouts && `${r.timeouts} timeouts`,
  ].filter(Boolean);
  return bad.length ? bad.join(', ') : undefined;
}
