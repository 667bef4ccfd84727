/**
 * One token refresh at a time across the tabs of this browser. Tabs restored together after the access
 * token expired all want to refresh with the same refresh token; the server rotates it on first use, so
 * the others would present a rotated token, which looks like theft. Under the lock, a tab first reads
 * the tokens the previous holder stored and refreshes only if they are still stale.
 *
 * `fn` learns whether it waited for another tab: that tab's tokens may reach this one's copy of
 * localStorage a moment after the lock does (Chromium propagates storage between tabs asynchronously).
 *
 * Web Locks (`navigator.locks`, secure contexts: https and localhost) serialise exactly. Without them
 * (plain http on a LAN address), a BroadcastChannel note "refreshing" makes the other tabs wait for
 * "refreshed" (at most `waitMs`); two tabs starting in the same instant may still both refresh, which
 * the server's grace for a just-rotated token absorbs.
 */
export type RefreshLock = <T>(fn: (waited: boolean) => Promise<T>) => Promise<T>;

type Locks = {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
  request<T>(name: string, options: { ifAvailable: true }, callback: (lock: unknown) => Promise<T>): Promise<T>;
};
type Channel = Pick<BroadcastChannel, 'postMessage' | 'addEventListener'>;

export const REFRESH_LOCK_NAME = 'divan-refresh';

export function createRefreshLock(env: { locks?: Locks; channel?: Channel | null; waitMs?: number; now?: () => number } = {}): RefreshLock {
  if (env.locks) {
    const locks = env.locks;
    return (fn) =>
      locks.request(REFRESH_LOCK_NAME, { ifAvailable: true }, (lock) =>
        lock ? fn(false) : locks.request(REFRESH_LOCK_NAME, () => fn(true)),
      );
  }
  const channel = env.channel;
  if (!channel) return (fn) => fn(false);
  const waitMs = env.waitMs ?? 5_000;
  const now = env.now ?? Date.now;
  let busyUntil = 0;
  let waiting: (() => void)[] = [];
  const release = () => {
    busyUntil = 0;
    const resolve = waiting;
    waiting = [];
    resolve.forEach((r) => r());
  };
  channel.addEventListener('message', (event) => {
    const data = (event as MessageEvent).data as unknown;
    if (data === 'refreshing') busyUntil = now() + waitMs;
    else if (data === 'refreshed') release();
  });
  let mine: Promise<unknown> = Promise.resolve();
  return (fn) => {
    const run = async () => {
      const left = busyUntil - now();
      if (left > 0)
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, left);
        });
      channel.postMessage('refreshing');
      try {
        return await fn(left > 0);
      } finally {
        channel.postMessage('refreshed');
      }
    };
    // Calls of this tab queue behind each other, too.
    const result = mine.then(run, run);
    mine = result.catch(() => undefined);
    return result;
  };
}

/** The browser's own: Web Locks, else a BroadcastChannel, else none (a single tab has nobody to wait for). */
export function browserRefreshLock(): RefreshLock {
  const locks = typeof navigator !== 'undefined' ? (navigator as { locks?: Locks }).locks : undefined;
  // Only in a page (in Node, an open channel would keep the process alive).
  const channel =
    !locks && typeof window !== 'undefined' && typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(REFRESH_LOCK_NAME) : null;
  return createRefreshLock({ locks, channel });
}
