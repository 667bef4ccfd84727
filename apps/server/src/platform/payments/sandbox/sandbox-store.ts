import { randomInt } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database';
import { sandboxObjects } from './sandbox.tables';

/**
 * The sandbox's objects in `sandbox_stripe_objects`, each the JSON Stripe would answer (`id`, `object`,
 * `created`…): `type` is Stripe's `object`, `account` the connected account it lives on. Every function
 * takes the handle to use (the transaction inside one: on PGlite there is one connection).
 */
export type StripeObject = { id: string; object: string; [key: string]: unknown };

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Random suffix length: ~143 bits, so an id is also the unguessable token of its hosted page. */
export const ID_SUFFIX_LENGTH = 24;

/** A Stripe-like id: `pi_` + 24 random letters and digits. */
export function newId(prefix: string): string {
  let s = '';
  for (let i = 0; i < ID_SUFFIX_LENGTH; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return `${prefix}${s}`;
}

/** Whether `id` could be one of ours with this prefix (checked before touching the database). */
export const looksLikeId = (id: string, prefix: string) =>
  id.length === prefix.length + ID_SUFFIX_LENGTH && id.startsWith(prefix) && /^[0-9A-Za-z]+$/.test(id.slice(prefix.length));

/** An invalid request, as Stripe answers one (HTTP 400/404: `resource_missing`, `amount_too_large`…). */
export class SandboxRequestError extends Error {
  readonly type = 'invalid_request_error';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxRequestError';
  }
}

export const noSuch = (what: string, id: string) => new SandboxRequestError('resource_missing', `No such ${what}: '${id}'`);

export async function insertObject<T extends StripeObject>(
  db: DbOrTx,
  data: T,
  opts: { account: string | null; idempotencyKey?: string | null },
): Promise<T> {
  await db
    .insert(sandboxObjects)
    .values({ id: data.id, type: data.object, account: opts.account, data, idempotencyKey: opts.idempotencyKey ?? null });
  return data;
}

/** An object of this type, on this account when given (another account's object does not exist there, as on Stripe). */
export async function findObject<T extends StripeObject>(
  db: DbOrTx,
  type: string,
  id: string,
  opts: { account?: string | null; lock?: boolean } = {},
): Promise<T | null> {
  return (await findWithAccount<T>(db, type, id, opts))?.data ?? null;
}

/** An object and the account it lives on (a hosted page knows only the object's id). */
export async function findWithAccount<T extends StripeObject>(
  db: DbOrTx,
  type: string,
  id: string,
  opts: { account?: string | null; lock?: boolean } = {},
): Promise<{ account: string | null; data: T } | null> {
  const where = and(
    eq(sandboxObjects.id, id),
    eq(sandboxObjects.type, type),
    opts.account !== undefined ? sql`${sandboxObjects.account} IS NOT DISTINCT FROM ${opts.account}` : undefined,
  );
  const q = db.select({ account: sandboxObjects.account, data: sandboxObjects.data }).from(sandboxObjects).where(where);
  const [row] = opts.lock ? await q.for('update') : await q;
  return row ? { account: row.account, data: row.data as T } : null;
}

export async function getObject<T extends StripeObject>(
  db: DbOrTx,
  type: string,
  id: string,
  opts: { account?: string | null; lock?: boolean; what?: string } = {},
): Promise<T> {
  const found = await findObject<T>(db, type, id, opts);
  if (!found) throw noSuch(opts.what ?? type, id);
  return found;
}

export async function saveObject<T extends StripeObject>(db: DbOrTx, data: T): Promise<T> {
  await db.update(sandboxObjects).set({ data }).where(eq(sandboxObjects.id, data.id));
  return data;
}

/**
 * The object a request with this idempotency key created on this account, if any. Callers hold
 * `lockKey` first, so two requests with one key never both miss it.
 */
export async function findByKey<T extends StripeObject>(db: DbOrTx, account: string | null, key: string): Promise<T | null> {
  const [row] = await db
    .select({ data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(and(sql`${sandboxObjects.account} IS NOT DISTINCT FROM ${account}`, eq(sandboxObjects.idempotencyKey, key)))
    .limit(1);
  return (row?.data as T | undefined) ?? null;
}

/** Serialises requests with one idempotency key (a double click, two server processes) until the transaction ends. */
export async function lockKey(tx: DbOrTx, account: string | null, key: string) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`sandbox\n${account ?? ''}\n${key}`}, 0))`);
}

/** An account's objects of one type, newest first. */
export async function listObjects<T extends StripeObject>(db: DbOrTx, type: string, account: string, limit = 200): Promise<T[]> {
  const rows = await db
    .select({ data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(and(eq(sandboxObjects.type, type), eq(sandboxObjects.account, account)))
    .orderBy(desc(sandboxObjects.createdAt), desc(sandboxObjects.id))
    .limit(limit);
  return rows.map((r) => r.data as T);
}

/** Open Checkout Sessions whose `expires_at` has passed (the expiry sweep's batch), oldest first. */
export async function listExpiredSessions(
  db: DbOrTx,
  nowSeconds: number,
  limit: number,
): Promise<{ account: string | null; id: string }[]> {
  return db
    .select({ account: sandboxObjects.account, id: sandboxObjects.id })
    .from(sandboxObjects)
    .where(
      and(
        eq(sandboxObjects.type, 'checkout.session'),
        sql`${sandboxObjects.data}->>'status' = 'open'`,
        sql`(${sandboxObjects.data}->>'expires_at')::bigint < ${nowSeconds}`,
      ),
    )
    .orderBy(sandboxObjects.createdAt)
    .limit(limit);
}
