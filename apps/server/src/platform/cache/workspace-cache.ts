export type WorkspaceCacheOptions<V> = {
  /** Most entries kept (0: no cache). */
  maxEntries: number;
  /** Most size kept, all workspaces together, as measured by `sizeOf` (default: no bound). */
  maxSize?: number;
  sizeOf?: (value: V) => number;
  /** An entry is never older than this, even if a change from another process was not heard of. */
  ttlMs?: number;
  now?: () => number;
};

type Entry<V> = { workspaceId: string; value: V; size: number; storedAt: number };

/** How a cache's invalidations reach the other server processes (the realtime broker does this). */
export type CacheBus = {
  toServers(topic: string, key: string): Promise<void>;
  onServerEvent(topic: string, fn: (key: string) => void): void;
};

/**
 * Values derived from a workspace's data, valid until that data changes: the patient list pages,
 * the members' permissions.
 *
 * Every write calls `changed(workspaceId)` after its transaction commits: the workspace's values go
 * here at once, and, once `shareThrough` a bus, in the other server processes when its note arrives. A read takes the workspace's `generation()` *before*
 * it queries, puts it in the key, and `set` keeps the value only if no change came in meanwhile: a value
 * read while a write committed is never kept. `ttlMs` bounds what a lost cross-process note could cost.
 */
export class WorkspaceCache<V> {
  private readonly generations = new Map<string, number>();
  /** Bumped by `clear`: values of every workspace read before it are not kept. */
  private epoch = 0;
  /** Insertion order is recency order: a hit moves the entry to the end; eviction takes the front. */
  private readonly entries = new Map<string, Entry<V>>();
  private total = 0;
  private readonly maxSize: number;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly sizeOf: (value: V) => number;
  private shared: { bus: CacheBus; topic: string } | undefined;

  constructor(private readonly opts: WorkspaceCacheOptions<V>) {
    this.maxSize = opts.maxSize ?? Infinity;
    this.ttlMs = opts.ttlMs ?? 60_000;
    this.now = opts.now ?? Date.now;
    this.sizeOf = opts.sizeOf ?? (() => 0);
  }

  get enabled() {
    return this.opts.maxEntries > 0;
  }

  get size() {
    return this.entries.size;
  }

  /** Part of every key: read it before querying. */
  generation(workspaceId: string): string {
    return `${this.epoch}.${this.generations.get(workspaceId) ?? 0}`;
  }

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (this.now() - e.storedAt > this.ttlMs) {
      this.drop(key, e);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }

  /** Keeps `value` unless the workspace changed since `generation` was read. */
  set(key: string, workspaceId: string, generation: string, value: V) {
    const size = this.sizeOf(value);
    if (!this.enabled || this.generation(workspaceId) !== generation || size > this.maxSize) return;
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    this.entries.set(key, { workspaceId, value, size, storedAt: this.now() });
    this.total += size;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.opts.maxEntries && this.total <= this.maxSize) break;
      this.drop(k, e);
    }
  }

  /** Invalidations travel on `topic`: this process's `changed` reaches the others, and theirs reach it. */
  shareThrough(bus: CacheBus, topic: string): this {
    bus.onServerEvent(topic, (workspaceId) => this.invalidate(workspaceId));
    this.shared = { bus, topic };
    return this;
  }

  /** After a committed write to the workspace's data: its values are gone here and in every process. */
  changed(workspaceId: string) {
    this.invalidate(workspaceId);
    void this.shared?.bus.toServers(this.shared.topic, workspaceId).catch(() => {
      // The other processes then keep the old values until the age bound (ttlMs); this one is right.
    });
  }

  /** The workspace's data changed: its entries are gone (in this process). */
  invalidate(workspaceId: string) {
    this.generations.set(workspaceId, (this.generations.get(workspaceId) ?? 0) + 1);
    for (const [k, e] of this.entries) if (e.workspaceId === workspaceId) this.drop(k, e);
  }

  /** Something every entry may show changed (e.g. a therapist's name): everything is gone. */
  clear() {
    this.epoch++;
    this.entries.clear();
    this.total = 0;
  }

  private drop(key: string, e: Entry<V>) {
    this.entries.delete(key);
    this.total -= e.size;
  }
}
