import pg from 'pg';
import type { Practice } from './invoices-data';
import { merge, type LoadResult, type Slice } from './load';
import type { Managed } from './servers';
import { sleep } from './util';
import { runWrkPaths, type PathsResult } from './wrk-paths';

/** How issuing is measured against the baseline: warm-up, total seconds in `rounds` alternating slices, connections. */
export type PairOptions = { durationSec: number; warmupSec: number; rounds: number; connections: number };

const asSlice = (r: PathsResult): Slice => ({
  total: r.requests,
  seconds: r.durationUs / 1e6,
  p50Ms: r.p50Us / 1000,
  p99Ms: r.p99Us / 1000,
  non2xx: r.non2xx,
  errors: r.errors,
  timeouts: r.timeouts,
});

/**
 * The drafts, handed out in order: each wrk run gets every draft not yet taken and reports how many it
 * took (sent, answered or not), so no draft is named twice across runs.
 */
export class Drafts {
  private next = 0;
  /** 2xx answers counted by wrk across every issuing run (warm-ups included). */
  answered = 0;
  exhausted = false;
  constructor(
    private readonly p: Practice,
    private readonly server: Managed,
    private readonly auth: () => Record<string, string>,
  ) {}

  async issue(connections: number, durationSec: number): Promise<Slice> {
    const paths = this.p.draftIds.slice(this.next).map((id) => `/api/v1/workspaces/${this.p.workspaceId}/invoices/${id}/issue`);
    const r = await runWrkPaths({
      base: this.server.url,
      method: 'POST',
      paths,
      fallback: '/api/v1/health',
      headers: this.auth(),
      connections,
      durationSec,
    });
    this.next += r.used;
    this.answered += r.requests - r.non2xx;
    if (r.exhausted) this.exhausted = true;
    return asSlice(r);
  }

  /** One issue through fetch, before any load: a failing issue stops the bench with its answer. */
  async issueOne(call: (path: string) => Promise<{ number: string | null }>): Promise<string> {
    const id = this.p.draftIds[this.next++];
    if (!id) throw new Error('no draft left');
    const issued = await call(`/api/v1/workspaces/${this.p.workspaceId}/invoices/${id}/issue`);
    this.answered++;
    if (!issued.number) throw new Error(`the issued invoice has no number: ${JSON.stringify(issued).slice(0, 300)}`);
    return issued.number;
  }

  get taken() {
    return this.next;
  }
}

async function bareSlice(bare: Managed, headers: Record<string, string>, connections: number, durationSec: number): Promise<Slice> {
  return asSlice(await runWrkPaths({ base: bare.url, method: 'GET', paths: null, fallback: '/', headers, connections, durationSec }));
}

/** Issuing and the baseline in alternating slices (bare, issue, issue, bare…), each after its own warm-up. */
export async function issuePair(
  drafts: Drafts,
  bare: Managed,
  headers: Record<string, string>,
  cfg: PairOptions,
): Promise<{ target: LoadResult; bare: LoadResult; ratio: number }> {
  const slice = Math.max(1, Math.round(cfg.durationSec / cfg.rounds));
  if (cfg.warmupSec > 0) {
    await bareSlice(bare, headers, cfg.connections, cfg.warmupSec);
    await drafts.issue(cfg.connections, cfg.warmupSec);
  }
  const t: Slice[] = [];
  const b: Slice[] = [];
  for (let i = 0; i < cfg.rounds; i++) {
    const runs: [() => Promise<Slice>, Slice[]][] = [
      [() => bareSlice(bare, headers, cfg.connections, slice), b],
      [() => drafts.issue(cfg.connections, slice), t],
    ];
    if (i % 2) runs.reverse();
    for (const [run, into] of runs) into.push(await run());
  }
  const target = merge('POST …/invoices/:id/issue', t);
  const base = merge(`${bare.url}/`, b);
  return { target, bare: base, ratio: target.reqPerSec / base.reqPerSec };
}

/** Issued invoices of the seller, once the requests still in flight after wrk stopped have finished. */
export async function settledIssued(databaseUrl: string, sellerKey: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const count = async () =>
      (
        await client.query<{ n: number }>(`select count(*)::int as n from invoices where seller_key = $1 and status = 'issued'`, [
          sellerKey,
        ])
      ).rows[0]!.n;
    let last = -1;
    for (let i = 0; i < 50; i++) {
      const n = await count();
      if (n === last) return n;
      last = n;
      await sleep(300);
    }
    return last;
  } finally {
    await client.end();
  }
}
