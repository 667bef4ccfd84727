import { WorkspaceCache, type WorkspaceCacheOptions } from './workspace-cache';

/** A kept value and when its read began. */
export type Kept<V> = { value: V; builtAt: number };

export type CachedReadsOptions<V> = Omit<WorkspaceCacheOptions<Kept<V>>, 'sizeOf'> & {
  /** A hit older than this is still served while one read in the background replaces it (below `ttlMs`). */
  refreshAfterMs: number;
  /** What a value weighs against `maxSize`. */
  sizeOf?: (value: V) => number;
};

/**
 * Values of a workspace's data read through a WorkspaceCache, with the two things a cache in front of
 * slow reads needs besides keeping values:
 *
 * - **One read per key at a time.** After a change (or at the age bound) every waiting request of the
 *   same question shares the one read instead of starting its own: on PGlite, where reads queue in the
 *   process, fifty copies of a 50 ms aggregate made the fiftieth wait 2.5 s.
 * - **Refreshed ahead of the age bound.** A hit older than `refreshAfterMs` is served while a read in the
 *   background replaces it, so the bound that covers a change no event announced never leaves a busy
 *   screen waiting.
 *
 * With `maxEntries` 0 nothing is kept or shared: every call reads.
 */
export class CachedReads<V> {
  readonly cache: WorkspaceCache<Kept<V>>;
  private readonly inflight = new Map<string, Promise<V>>();
  private readonly now: () => number;

  constructor(private readonly o: CachedReadsOptions<V>) {
    const { sizeOf, ...rest } = o;
    this.cache = new WorkspaceCache<Kept<V>>({ ...rest, ...(sizeOf ? { sizeOf: (k: Kept<V>) => sizeOf(k.value) } : {}) });
    this.now = o.now ?? Date.now;
  }

  /** `key` names everything the value depends on besides the workspace's data (scope, period, today). */
  async read(workspaceId: string, key: string, make: () => Promise<V>): Promise<V> {
    // The generation is taken before the read: a value read while a write committed is not kept.
    const generation = this.cache.generation(workspaceId);
    const k = `${workspaceId}|${generation}|${key}`;
    const hit = this.cache.get(k);
    if (!hit) return this.load(k, workspaceId, generation, make);
    if (this.now() - hit.builtAt > this.o.refreshAfterMs) void this.load(k, workspaceId, generation, make).catch(() => undefined);
    return hit.value;
  }

  private load(k: string, workspaceId: string, generation: string, make: () => Promise<V>): Promise<V> {
    if (!this.cache.enabled) return make();
    let pending = this.inflight.get(k);
    if (!pending) {
      const builtAt = this.now();
      pending = make()
        .then((value) => {
          this.cache.set(k, workspaceId, generation, { value, builtAt });
          return value;
        })
        .finally(() => this.inflight.delete(k));
      this.inflight.set(k, pending);
    }
    return pending;
  }
}
