import { describe, expect, it } from 'vitest';
import { CachedReads } from './cached-reads';

/** A read that answers when told to, counting how many were started. */
function gatedReads() {
  const started: { answer: (v: string) => void }[] = [];
  const make = () => new Promise<string>((answer) => void started.push({ answer }));
  return { started, make };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('CachedReads', () => {
  it('shares one read among every request of the same question while it runs, and keeps its answer', async () => {
    const reads = new CachedReads<string>({ maxEntries: 10, refreshAfterMs: 45_000 });
    const g = gatedReads();
    const waiting = Array.from({ length: 50 }, () => reads.read('w1', 'sessions|oct', g.make));
    // Another question and another workspace read on their own.
    const other = reads.read('w1', 'sessions|nov', g.make);
    const elsewhere = reads.read('w2', 'sessions|oct', g.make);
    expect(g.started).toHaveLength(3);
    g.started[0]!.answer('octubre');
    g.started[1]!.answer('noviembre');
    g.started[2]!.answer('w2');
    expect(new Set(await Promise.all(waiting))).toEqual(new Set(['octubre']));
    expect([await other, await elsewhere]).toEqual(['noviembre', 'w2']);
    expect(await reads.read('w1', 'sessions|oct', g.make)).toBe('octubre');
    expect(g.started).toHaveLength(3);
  });

  it('does not keep an answer read while the workspace changed, and reads afresh after a change', async () => {
    const reads = new CachedReads<string>({ maxEntries: 10, refreshAfterMs: 45_000 });
    const g = gatedReads();
    const first = reads.read('w1', 'k', g.make);
    reads.cache.changed('w1');
    g.started[0]!.answer('antes');
    expect(await first).toBe('antes');
    const second = reads.read('w1', 'k', g.make);
    expect(g.started).toHaveLength(2);
    g.started[1]!.answer('después');
    expect(await second).toBe('después');
    expect(await reads.read('w1', 'k', g.make)).toBe('después');
    expect(g.started).toHaveLength(2);
  });

  it('serves an old answer while one read in the background replaces it, before the age bound', async () => {
    let now = 0;
    const reads = new CachedReads<string>({ maxEntries: 10, ttlMs: 60_000, refreshAfterMs: 45_000, now: () => now });
    const g = gatedReads();
    const first = reads.read('w1', 'k', g.make);
    g.started[0]!.answer('v1');
    await first;
    now = 30_000;
    expect(await reads.read('w1', 'k', g.make)).toBe('v1');
    expect(g.started).toHaveLength(1);
    now = 50_000;
    // Past refreshAfterMs: still v1 at once, and one read (not one per request) starts behind it.
    expect(await Promise.all([reads.read('w1', 'k', g.make), reads.read('w1', 'k', g.make)])).toEqual(['v1', 'v1']);
    expect(g.started).toHaveLength(2);
    g.started[1]!.answer('v2');
    await tick();
    expect(await reads.read('w1', 'k', g.make)).toBe('v2');
    // Past the age bound with no refresh, a request waits for a new read.
    now = 50_000 + 61_000;
    const late = reads.read('w1', 'k', g.make);
    expect(g.started).toHaveLength(3);
    g.started[2]!.answer('v3');
    expect(await late).toBe('v3');
  });

  it('with no entries, every request reads, and a failed read is not kept', async () => {
    const off = new CachedReads<string>({ maxEntries: 0, refreshAfterMs: 45_000 });
    let n = 0;
    const make = async () => `r${++n}`;
    expect([await off.read('w1', 'k', make), await off.read('w1', 'k', make)]).toEqual(['r1', 'r2']);

    const on = new CachedReads<string>({ maxEntries: 10, refreshAfterMs: 45_000 });
    await expect(on.read('w1', 'k', () => Promise.reject(new Error('sin conexión')))).rejects.toThrow('sin conexión');
    expect(await on.read('w1', 'k', make)).toBe('r3');
  });
});
