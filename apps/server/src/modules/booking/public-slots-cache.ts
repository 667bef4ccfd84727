/** How long a month of free slots is kept at most: also how stale the minimum notice can read. */
export const PUBLIC_SLOTS_TTL_MS = 30_000;
const MAX_ENTRIES = 2_000;

/**
 * Months of free slots as the public booking page reads them (their JSON), kept a few seconds per (workspace,
 * service, month, visitor zone): a busy page asks for the same month again and again, and each answer
 * costs three queries. Any change to the therapist's time (a session, in any process, through the
 * domain events), to the service or to a blocked day drops the workspace's months; the TTL bounds the
 * rest (the minimum notice moving with the clock). Booking checks the slot again in its transaction,
 * so a stale month can offer a slot that is then refused, never book a taken one.
 */
export class PublicSlotsCache<T = string> {
  private readonly entries = new Map<string, { at: number; value: T }>();

  constructor(private readonly now: () => number = Date.now) {}

  async read(workspaceId: string, key: string, make: () => Promise<T>): Promise<T> {
    const k = `${workspaceId}|${key}`;
    const hit = this.entries.get(k);
    if (hit && this.now() - hit.at < PUBLIC_SLOTS_TTL_MS) return hit.value;
    const at = this.now();
    const generation = this.generationOf(workspaceId);
    const value = await make();
    // A change that came in while this month was computed leaves it uncached.
    if (this.generationOf(workspaceId) === generation) {
      this.entries.delete(k);
      this.entries.set(k, { at, value });
      if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    }
    return value;
  }

  /** Something of the workspace's therapists' time changed: its months go. */
  changed(workspaceId: string) {
    this.generations.set(workspaceId, this.generationOf(workspaceId) + 1);
    for (const k of this.entries.keys()) if (k.startsWith(`${workspaceId}|`)) this.entries.delete(k);
  }

  private readonly generations = new Map<string, number>();
  private generationOf = (workspaceId: string) => this.generations.get(workspaceId) ?? 0;
}
