import { describe, expect, it } from 'vitest';
import type { Db } from './database';
import { dbOf, primaryOnly, withReplica } from './read-routing';

// Stand-ins: the routing only hands the handles out, it never queries through them.
const primary = { name: 'primary' } as unknown as Db;
const replica = { name: 'replica' } as unknown as Db;

/** A primary at LSN `at()` and a replica whose replay position is `replayed()` (null: not a standby; a throw: down). */
function servers(o: { at: () => number; replayed: () => number | null }) {
  const asked = { primary: 0, replica: 0 };
  const lsn = (n: number) => `0/${n.toString(16).toUpperCase()}`;
  const parse = (s: string) => parseInt(s.split('/')[1]!, 16);
  return {
    asked,
    primaryQuery: async () => (asked.primary++, { rows: [{ lsn: lsn(o.at()) }] }),
    replicaQuery: async (_text: string, values?: unknown[]) => {
      asked.replica++;
      const r = o.replayed();
      return { rows: [{ ok: r === null ? null : r >= parse(values![0] as string) }] };
    },
  };
}

describe('read routing (DATABASE_REPLICA_URL)', () => {
  it('without a replica every reader is the primary, and nothing is asked', async () => {
    const reads = primaryOnly(primary);
    expect(await reads.reader()).toBe(primary);
    expect(await reads.onReplica(async () => reads.current())).toBe(primary);
  });

  it('reads the replica once it has replayed the primary’s flushed WAL, waiting for it a little', async () => {
    let replayed = 90;
    const s = servers({ at: () => 100, replayed: () => (replayed += 5) });
    const reads = withReplica(primary, replica, { ...s, maxWaitMs: 1_000 });
    expect(await reads.reader()).toBe(replica);
    expect(s.asked.replica).toBeGreaterThan(1);
    expect(reads.counts).toEqual({ replica: 1, primary: 0 });
  });

  it('goes to the primary when the replica is further behind than the wait', async () => {
    const s = servers({ at: () => 100, replayed: () => 50 });
    const reads = withReplica(primary, replica, { ...s, maxWaitMs: 20 });
    expect(await reads.reader()).toBe(primary);
    expect(reads.counts).toEqual({ replica: 0, primary: 1 });
  });

  it('skips a failing replica, and a server that is not a standby, for a while', async () => {
    let down = true;
    const warnings: string[] = [];
    const s = servers({
      at: () => 100,
      replayed: () => {
        if (down) throw new Error('connect ECONNREFUSED');
        return 200;
      },
    });
    const reads = withReplica(primary, replica, { ...s, downForMs: 60, warn: (m) => warnings.push(m) });
    expect(await reads.reader()).toBe(primary);
    down = false;
    const askedBefore = s.asked.replica;
    expect(await reads.reader()).toBe(primary);
    expect(s.asked.replica).toBe(askedBefore);
    await new Promise((r) => setTimeout(r, 80));
    expect(await reads.reader()).toBe(replica);
    expect(warnings[0]).toMatch(/ECONNREFUSED/);

    const notStandby = withReplica(primary, replica, { ...servers({ at: () => 1, replayed: () => null }), warn: (m) => warnings.push(m) });
    expect(await notStandby.reader()).toBe(primary);
    expect(warnings.at(-1)).toMatch(/not a standby/);
  });

  it('onReplica chooses once for every port read inside it; outside, current() is the primary', async () => {
    const s = servers({ at: () => 1, replayed: () => 1 });
    const reads = withReplica(primary, replica, s);
    const seen = await reads.onReplica(async () => {
      await new Promise((r) => setTimeout(r, 1));
      return [dbOf(reads), await reads.onReplica(async () => reads.current())];
    });
    expect(seen).toEqual([replica, replica]);
    expect(reads.counts.replica).toBe(1);
    expect(reads.current()).toBe(primary);
    expect(dbOf(primary)).toBe(primary);
  });
});
