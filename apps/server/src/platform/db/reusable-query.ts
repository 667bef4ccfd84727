import type { DbOrTx } from './database';

type Prepared = { execute(values?: Record<string, unknown>): Promise<unknown> };
type Preparable = { prepare(name: string): Prepared };
type Session = { client: unknown; logger: unknown; constructor: unknown };

/**
 * A drizzle query built once per process (and per shape: what changes its text), then run on any handle —
 * the database or a transaction — with its `sql.placeholder`s filled in. Drizzle otherwise builds the SQL
 * text on every call (a quarter of the server's CPU while issuing invoices), and on PostgreSQL the name
 * makes it a server-side prepared statement, parsed and planned once per connection. For hot paths only.
 *
 * How: drizzle's prepared query keeps the driver's client it runs on (`client`); a query prepared once is
 * reused through an object that inherits everything from it but that client and the handle's logger (a
 * test counts the statements of one app: `onStatement`). Built per driver (its
 * session class): node-postgres and PGlite prepare differently. Each name and shape has one text, as
 * node-postgres requires of a statement name on a connection.
 */
export function reusableQuery<V extends Record<string, unknown>, R>(name: string, build: (d: DbOrTx, shape: string) => Preparable) {
  const byDriver = new Map<unknown, Map<string, Prepared>>();
  return async (d: DbOrTx, shape: string, values: V): Promise<R> => {
    const session = (d as unknown as { session: Session }).session;
    let built = byDriver.get(session.constructor);
    if (!built) byDriver.set(session.constructor, (built = new Map()));
    let base = built.get(shape);
    if (!base) built.set(shape, (base = build(d, shape).prepare(`${name}_${shape}`)));
    const bound = Object.create(base) as Prepared & { client: unknown; logger: unknown };
    bound.client = session.client;
    bound.logger = session.logger;
    return (await bound.execute(values)) as R;
  };
}
