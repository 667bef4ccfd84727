import { randomUUID } from 'node:crypto';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { domainEventSchemas, isDomainEventName, type DomainEventName, type DomainEvents } from '@divan/core';
import type { Db, Tx } from '../db/database';
import type { Broker, BrokerMessage } from '../realtime/broker';

/**
 * Where a handler runs. `every-process`: in each server process (dropping a cache every process
 * keeps). `once`: only in the process that emitted the event, so a side effect happens once.
 */
export type HandlerScope = 'once' | 'every-process';
export type EventHandler<N extends DomainEventName> = (payload: DomainEvents[N], event: { name: N }) => unknown;
export type Emit = <N extends DomainEventName>(name: N, payload: DomainEvents[N]) => void;
/** Work to do once the transaction has committed (deleting stored bytes); skipped if it rolls back. */
export type OnCommit = (fn: () => unknown) => void;
export type EventLog = { error(obj: object, msg: string): void };

type Registered = { handler: EventHandler<never>; scope: HandlerScope };

/**
 * Typed domain events (catalogue in packages/core/src/events.ts), published after commit.
 *
 * `transaction(db, (tx, emit, onCommit) => …)` buffers what the callback emits and delivers it only
 * once the transaction has committed; a rollback drops it. `emit` outside a transaction is for a write
 * that has already committed. Delivery: this process's handlers run in registration order and are
 * awaited, so the caller (an HTTP request) sees their effects; a handler that throws is logged and
 * never fails the caller. Then, if any handler of the event is `every-process`, the event goes through
 * the realtime broker (Redis when configured) to the other processes, which run only those handlers.
 * Every process wires the same handlers at start-up, which is why only the emitter needs to know that.
 *
 * Durability: delivery lives in memory. If the process dies between the commit and the handlers, the
 * event is lost; a note lost between processes is lost too. Handlers are for work that may be lost
 * (caches, websocket nudges). What must happen (mail, reminders, deleting files for good) is a job
 * enqueued in the same transaction (platform/jobs). See docs/decisions/0009-domain-events.md.
 */
export class EventBus {
  private readonly handlers = new Map<DomainEventName, Registered[]>();
  /** Deliveries from other processes still running: `settled()` waits for them (tests, shutdown). */
  private readonly inFlight = new Set<Promise<void>>();
  private readonly origin = randomUUID();
  private started = false;
  private stopped = false;

  constructor(
    private readonly broker: Broker,
    private readonly log: EventLog,
  ) {}

  /** Subscribes to the broker: events emitted by the other processes reach `every-process` handlers. */
  async start() {
    if (this.started) return;
    this.started = true;
    await this.broker.subscribe((m) => this.receive(m));
  }

  /** Further deliveries from other processes are ignored; the ones running are awaited. */
  async stop() {
    this.stopped = true;
    await this.settled();
  }

  on<N extends DomainEventName>(name: N, handler: EventHandler<N>, opts: { scope: HandlerScope }): () => void {
    const entry: Registered = { handler: handler as EventHandler<never>, scope: opts.scope };
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), entry]);
    return () =>
      this.handlers.set(
        name,
        (this.handlers.get(name) ?? []).filter((e) => e !== entry),
      );
  }

  /** Publishes an event whose change has already committed. Never rejects. */
  async emit<N extends DomainEventName>(name: N, payload: DomainEvents[N]): Promise<void> {
    const handlers = this.handlers.get(name) ?? [];
    const published = handlers.some((h) => h.scope === 'every-process') ? this.publish(name, payload) : undefined;
    await this.run(name, payload, handlers);
    await published;
  }

  /**
   * `db.transaction(fn)`, with events and after-commit work delivered only if it commits, in the order
   * they were emitted. Not inside another transaction: a savepoint's release is not a commit.
   */
  async transaction<T>(db: Db, fn: (tx: Tx, emit: Emit, onCommit: OnCommit) => Promise<T>): Promise<T> {
    if (db instanceof PgTransaction)
      throw new Error('EventBus.transaction needs the database, not a transaction: pass `emit` down instead');
    const afterCommit: (() => Promise<void>)[] = [];
    const emit: Emit = (name, payload) => void afterCommit.push(() => this.emit(name, payload));
    const onCommit: OnCommit = (work) => void afterCommit.push(() => this.guard('after-commit work', () => work()));
    const result = await db.transaction((tx) => fn(tx, emit, onCommit));
    for (const deliver of afterCommit) await deliver();
    return result;
  }

  /** Resolves when deliveries of events from other processes have finished. */
  async settled() {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  private async run(name: DomainEventName, payload: unknown, handlers: Registered[]) {
    for (const h of handlers)
      await this.guard(`handler of ${name}`, () => (h.handler as EventHandler<DomainEventName>)(payload as never, { name }));
  }

  private async publish(name: DomainEventName, payload: unknown) {
    try {
      await this.broker.publish({ kind: 'event', name, payload, origin: this.origin });
    } catch (err) {
      // The other processes miss it: their `every-process` handlers are for what may be lost (caches with an age bound).
      this.log.error({ err, event: name }, 'domain event not published to the other processes');
    }
  }

  private receive(m: BrokerMessage) {
    if (m.kind !== 'event' || m.origin === this.origin || this.stopped) return;
    if (!isDomainEventName(m.name)) return; // from a newer version of the server during a rolling deploy
    const parsed = domainEventSchemas[m.name].safeParse(m.payload);
    if (!parsed.success)
      return this.log.error({ event: m.name, issues: parsed.error.issues }, 'malformed domain event from another process');
    const handlers = (this.handlers.get(m.name) ?? []).filter((h) => h.scope === 'every-process');
    const delivery = this.run(m.name, parsed.data, handlers);
    this.inFlight.add(delivery);
    void delivery.finally(() => this.inFlight.delete(delivery));
  }

  private async guard(what: string, work: () => unknown) {
    try {
      await work();
    } catch (err) {
      this.log.error({ err }, `${what} failed (the change it follows is committed)`);
    }
  }
}
