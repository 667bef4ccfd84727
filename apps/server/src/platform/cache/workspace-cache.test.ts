import { describe, expect, it } from 'vitest';
import { WorkspaceCache } from './workspace-cache';

type Q = { q?: string; page?: number; who?: string };
/** Keys as a feature builds them: workspace, generation, then what the value depends on. */
const key = (ws: string, g: string, _scope: unknown, q: Q) => `${ws}|${g}|${JSON.stringify(q)}`;
const q = (over: Q = {}): Q => ({ q: 'garcia', ...over });
const all = { kind: 'all' } as const;
const cache = (opts: Partial<ConstructorParameters<typeof WorkspaceCache<string>>[0]> = {}) => {
  const c = new WorkspaceCache<string>({ maxEntries: 10, sizeOf: (s) => s.length, ...opts });
  return Object.assign(c, { key });
};

describe('WorkspaceCache', () => {
  it('keeps a value per workspace and key', () => {
    const c = cache();
    const g = c.generation('w1');
    c.set(c.key('w1', g, all, q()), 'w1', g, '{"a":1}');
    expect(c.get(c.key('w1', g, all, q()))).toBe('{"a":1}');
    expect(c.get(c.key('w1', g, all, q({ page: 2 })))).toBeUndefined();
    expect(c.get(c.key('w1', g, all, q({ who: 'own:u1' })))).toBeUndefined();
    expect(c.get(c.key('w2', c.generation('w2'), all, q()))).toBeUndefined();
  });

  it("drops a workspace's values when its data changes, and no other", () => {
    const c = cache();
    for (const ws of ['w1', 'w2']) c.set(c.key(ws, c.generation(ws), all, q()), ws, c.generation(ws), ws);
    c.invalidate('w1');
    expect(c.get(c.key('w1', c.generation('w1'), all, q()))).toBeUndefined();
    expect(c.get(c.key('w2', c.generation('w2'), all, q()))).toBe('w2');
    expect(c.size).toBe(1);
  });

  it('does not keep a value read while a write committed (read before, store after the change)', () => {
    const c = cache();
    const before = c.generation('w1');
    c.invalidate('w1'); // a write commits while the read is in the database
    c.set(c.key('w1', before, all, q()), 'w1', before, 'stale');
    expect(c.size).toBe(0);
    const g = c.generation('w1');
    c.clear(); // a therapist's name changed while another read was running
    c.set(c.key('w1', g, all, q()), 'w1', g, 'stale');
    expect(c.size).toBe(0);
  });

  it('evicts the least recently used value beyond its entry and size bounds', () => {
    const c = cache({ maxEntries: 2, maxSize: 10 });
    const g = c.generation('w');
    const k = (page: number) => c.key('w', g, all, q({ page }));
    c.set(k(1), 'w', g, 'aaa');
    c.set(k(2), 'w', g, 'bbb');
    c.get(k(1)); // page 1 used again: page 2 is now the oldest
    c.set(k(3), 'w', g, 'ccc');
    expect([c.get(k(1)), c.get(k(2)), c.get(k(3))]).toEqual(['aaa', undefined, 'ccc']);
    c.set(k(4), 'w', g, 'dddddddd'); // 3 + 8 bytes > 10: the oldest goes
    expect(c.size).toBe(1);
    expect(c.get(k(4))).toBe('dddddddd');
  });

  it('forgets values older than its TTL, and keeps nothing when off', () => {
    let now = 0;
    const c = cache({ ttlMs: 1000, now: () => now });
    const g = c.generation('w');
    c.set(c.key('w', g, all, q()), 'w', g, 'x');
    now = 1001;
    expect(c.get(c.key('w', g, all, q()))).toBeUndefined();
    const off = cache({ maxEntries: 0 });
    off.set(off.key('w', off.generation('w'), all, q()), 'w', off.generation('w'), 'x');
    expect(off.size).toBe(0);
  });

  it('shares `changed` with the other processes on its bus, and hears theirs', async () => {
    const handlers = new Map<string, ((key: string) => void)[]>();
    const bus = {
      toServers: async (topic: string, key: string) => handlers.get(topic)?.forEach((fn) => fn(key)),
      onServerEvent: (topic: string, fn: (key: string) => void) => void handlers.set(topic, [...(handlers.get(topic) ?? []), fn]),
    };
    const [a, b] = [cache().shareThrough(bus, 't'), cache().shareThrough(bus, 't')];
    for (const c of [a, b]) c.set(c.key('w', c.generation('w'), all, q()), 'w', c.generation('w'), 'x');
    a.changed('w');
    await Promise.resolve();
    expect([a.size, b.size]).toEqual([0, 0]);
  });
});
