import { afterEach, describe, expect, it } from 'vitest';
import { createRefreshLock } from './refresh-lock';

/** A stand-in for navigator.locks: one holder at a time, in request order. */
function fakeLocks() {
  let tail: Promise<unknown> = Promise.resolve();
  let pending = 0; // holders and waiters
  const names = new Set<string>();
  const request = <T>(name: string, ...args: unknown[]): Promise<T> => {
    names.add(name);
    const callback = args[args.length - 1] as (lock: unknown) => Promise<T>;
    if (args.length === 2 && pending > 0) return callback(null); // ifAvailable, and taken
    pending++;
    const run = tail.then(() => callback({ name })).finally(() => pending--);
    tail = run.catch(() => undefined);
    return run;
  };
  return { names, request };
}

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

/** Four "tabs" refresh at once; each reads what the previous one stored, as auth-session.ts does. */
async function fourTabs(locks: ReturnType<typeof createRefreshLock>[]) {
  const storage = { token: 'r0' };
  const used: string[] = [];
  const waited: boolean[] = [];
  let holders = 0;
  let maxHolders = 0;
  await Promise.all(
    locks.map((lock) =>
      lock(async (w) => {
        waited.push(w);
        holders++;
        maxHolders = Math.max(maxHolders, holders);
        const seen = storage.token;
        if (seen === 'r0') {
          used.push(seen);
          await tick(20); // the request to the server
          storage.token = 'r1';
        }
        holders--;
      }),
    ),
  );
  return { used, maxHolders, stored: storage.token, waited };
}

const channels: BroadcastChannel[] = [];
afterEach(() => channels.splice(0).forEach((c) => c.close()));
const channel = () => {
  const c = new BroadcastChannel('divan-refresh-test');
  channels.push(c);
  return c;
};

describe('refresh lock across tabs', () => {
  it('with Web Locks, one tab refreshes and the others find the new token', async () => {
    const locks = fakeLocks();
    const result = await fourTabs([1, 2, 3, 4].map(() => createRefreshLock({ locks })));
    // The first holder did not wait; the others did, and know the first one's tokens may be on their way.
    expect(result).toEqual({ used: ['r0'], maxHolders: 1, stored: 'r1', waited: [false, true, true, true] });
    expect([...locks.names]).toEqual(['divan-refresh']);
  });

  it('without Web Locks, a BroadcastChannel note makes the other tabs wait for the one refreshing', async () => {
    const channels4 = [1, 2, 3, 4].map(() => channel());
    const tabs = channels4.map((c) => createRefreshLock({ channel: c }));
    // Each other tab's channel tells when the first tab's "refreshing" note has reached it (its own
    // listener, added after the lock's, runs after the lock has read the note).
    const noted = channels4
      .slice(1)
      .map(
        (c) => new Promise<void>((resolve) => c.addEventListener('message', (e) => (e as MessageEvent).data === 'refreshing' && resolve())),
      );
    let finish!: (v: string) => void;
    const first = tabs[0]!(() => new Promise<string>((r) => (finish = r)));
    await Promise.all(noted);
    let othersRan = false;
    const rest = Promise.all(tabs.slice(1).map((lock) => lock(async (waited) => void (othersRan = waited))));
    await tick(10);
    expect(othersRan).toBe(false);
    finish('done');
    expect(await first).toBe('done');
    await rest;
    expect(othersRan).toBe(true);
  });

  it('without either, runs the refresh directly', async () => {
    expect(await createRefreshLock({})(async () => 42)).toBe(42);
  });

  it('a failing refresh releases the lock for the next tab', async () => {
    const locks = fakeLocks();
    const [a, b] = [createRefreshLock({ locks }), createRefreshLock({ locks })];
    const failed = a(() => Promise.reject(new Error('network_error')));
    await expect(failed).rejects.toThrow('network_error');
    expect(await b(async () => 'next')).toBe('next');
  });
});
