import type { Broker } from '../realtime/broker';

/**
 * Device sessions ended (sign-out, password reset or change, refresh-token reuse) whose access tokens
 * may still be unexpired. Every authenticated request asks `has(sid)`: one Map lookup, no query.
 *
 * An entry lives as long as an access token issued before the revocation can (`ttlMs`: the access
 * token's lifetime plus a margin for clocks), so the set holds only the last minutes' revocations.
 * Every process learns of a revocation through the broker's `session-ended` note (Redis pub/sub across
 * processes); a process that starts later loads the recent ones from the database once (`load`).
 */
export class RevokedSessions {
  /** Session id → until when its tokens are refused. Insertion order is roughly expiry order. */
  private readonly until = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  has(sessionId: string): boolean {
    const until = this.until.get(sessionId);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(sessionId);
    return false;
  }

  /** The session was revoked at `revokedAt` (default now): its access tokens are refused from now on. */
  add(sessionId: string, revokedAt: number = this.now()) {
    const now = this.now();
    this.prune(now);
    const until = revokedAt + this.ttlMs;
    if (until <= now) return;
    const known = this.until.get(sessionId);
    if (known === undefined || known < until) {
      this.until.delete(sessionId);
      this.until.set(sessionId, until);
    }
  }

  /** Start-up: the sessions revoked within the last `ttlMs`, read from the database. */
  load(rows: { id: string; revokedAt: Date }[]) {
    for (const r of [...rows].sort((a, b) => a.revokedAt.getTime() - b.revokedAt.getTime())) this.add(r.id, r.revokedAt.getTime());
  }

  /** Earliest revocation time still worth loading at start-up. */
  get loadSince(): Date {
    return new Date(this.now() - this.ttlMs);
  }

  /** Revocations published by any process (this one included) reach this set. */
  listen(broker: Broker): Promise<void> {
    return broker.subscribe((m) => {
      if (m.kind === 'session-ended') this.add(m.sessionId);
    });
  }

  get size() {
    return this.until.size;
  }

  /** Drops expired entries from the front; stops at the first live one (amortised O(1) per add). */
  private prune(now: number) {
    for (const [id, until] of this.until) {
      if (until > now) break;
      this.until.delete(id);
    }
  }
}
