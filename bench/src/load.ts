import autocannon from 'autocannon';
import { withTimeout } from './util';

export type Endpoint = { url: string; headers?: Record<string, string> };
export type LoadOptions = { connections: number; durationSec: number; warmupSec: number; rounds: number };
export type LoadResult = {
  url: string;
  reqPerSec: number;
  /** Request-weighted mean of the slices' p50. */
  p50Ms: number;
  /** Highest p99 of the slices (conservative). */
  p99Ms: number;
  total: number;
  seconds: number;
  non2xx: number;
  errors: number;
  timeouts: number;
};
export type Pair = { target: LoadResult; bare: LoadResult; ratio: number };

async function cannon(e: Endpoint, connections: number, durationSec: number) {
  const run = autocannon({ url: e.url, headers: e.headers ?? {}, connections, duration: durationSec, timeout: 10 });
  return withTimeout(`load on ${e.url}`, (durationSec + 30) * 1000, run);
}

function merge(url: string, runs: autocannon.Result[]): LoadResult {
  const total = runs.reduce((s, r) => s + r.requests.total, 0);
  const seconds = runs.reduce((s, r) => s + r.duration, 0);
  return {
    url,
    reqPerSec: total / seconds,
    p50Ms: runs.reduce((s, r) => s + r.latency.p50 * r.requests.total, 0) / Math.max(1, total),
    p99Ms: Math.max(...runs.map((r) => r.latency.p99)),
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
    await cannon(bare, o.connections, o.warmupSec);
    await cannon(target, o.connections, o.warmupSec);
  }
  const t: autocannon.Result[] = [];
  const b: autocannon.Result[] = [];
  for (let i = 0; i < o.rounds; i++) {
    const order: [Endpoint, autocannon.Result[]][] = i % 2 === 0 ? [[bare, b], [target, t]] : [[target, t], [bare, b]];
    for (const [e, into] of order) into.push(await cannon(e, o.connections, slice));
  }
  const result = { target: merge(target.url, t), bare: merge(bare.url, b) };
  return { ...result, ratio: result.target.reqPerSec / result.bare.reqPerSec };
}

/** Why a run's figures can't be trusted (error answers, socket errors), or undefined. */
export function loadProblem(r: LoadResult): string | undefined {
  const bad = [r.reqPerSec === 0 && 'no request completed', r.non2xx && `${r.non2xx} non-2xx`, r.errors && `${r.errors} errors`, r.timeouts && `${r.timeouts} timeouts`].filter(Boolean);
  return bad.length ? bad.join(', ') : undefined;
}
