import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * PGlite runs one statement at a time, in the order they were sent, inside this process's event loop: a
 * statement blocks it while it runs, and the next queued one starts in the same turn of the loop. A
 * computation that sends its dozen statements at once (`Promise.all`) therefore keeps the loop from every
 * other request until all of them are done: on the statistics' freelance bench one uncached answer held
 * `GET /health` 80–110 ms though none of its statements took more than ~20. Inside `inTurns`, a PGlite
 * client wrapped by `takeTurns` sends the computation's next statement only once its previous one has
 * answered and the loop has had a turn (`setImmediate`: what arrived meanwhile is read and its own
 * statements queued first), so the longest wait becomes one statement; the computation takes as long as
 * before (PGlite ran them one by one anyway). On PostgreSQL nothing is wrapped and nothing changes.
 *
 * Transactions are untouched: PGlite's transaction handle sends through its own methods, not these.
 */
const turns = new AsyncLocalStorage<{ last: Promise<unknown> }>();

/** Runs `fn` with the statements it sends on a `takeTurns` client one after another. */
export function inTurns<T>(fn: () => Promise<T>): Promise<T> {
  return turns.run({ last: Promise.resolve() }, fn);
}

type Sender = (...args: never[]) => Promise<unknown>;

/** Makes `client`'s `query` and `exec` wait for the previous statement of the same `inTurns` call. */
export function takeTurns<C extends { query: Sender; exec: Sender }>(client: C): C {
  for (const name of ['query', 'exec'] as const) {
    const send = client[name].bind(client) as (...args: unknown[]) => Promise<unknown>;
    const inTurn = (...args: unknown[]) => {
      const t = turns.getStore();
      if (!t) return send(...args);
      const sent = t.last.then(() => new Promise((next) => setImmediate(next))).then(() => send(...args));
      // The next statement waits for this one to end, answered or refused; the refusal is its caller's.
      t.last = sent.catch(() => undefined);
      return sent;
    };
    (client as Record<typeof name, unknown>)[name] = inTurn;
  }
  return client;
}
