// Shard-ready data (issue 31): a later move to Citus, distributing by workspace, needs every table that
// belongs to a workspace to carry `workspace_id`, and every unique key of such a table to include it (a
// distributed table's uniqueness is checked within one shard). Checked over the Drizzle schema itself
// (every *.tables.ts). What does not hold is listed below, each with its reason: the global tables (not a
// workspace's) and the unique keys that are global lookups. A child table carries its parent's
// workspace_id too (invoice lines, member roles, signers…). A new table or key must follow the rule or be
// added here with a reason.
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { is } from 'drizzle-orm';
import { getTableConfig, integer, PgTable, pgTable, unique, uuid } from 'drizzle-orm/pg-core';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Not a workspace's data: global by nature (Citus: reference or local tables, or distributed by their own key). */
const GLOBAL: Record<string, string> = {
  workspaces: 'the distribution root itself: its id is every other table’s workspace_id',
  users: 'a therapist’s account, across the workspaces they belong to',
  auth_challenges: 'sign-in codes and links of an account, before any workspace is chosen',
  device_sessions: 'an account’s signed-in devices',
  refresh_tokens: 'a device session’s tokens',
  oauth_states: 'a social sign-in in progress, per account',
  passkeys: 'an account’s second factor',
  recovery_codes: 'an account’s second factor',
  totp_authenticators: 'an account’s second factor',
  webauthn_challenges: 'an account’s second factor in progress',
  user_identities: 'an account’s Google / Apple identities',
  pending_identity_links: 'an account’s identity being linked',
  patient_accounts: 'a patient’s own account, which may be linked to files in several workspaces',
  feedback: 'comments to Diván’s operator, per account',
  installation: 'the installation’s marker (one row)',
  job_claims: 'the jobs’ side-effect claims: keys of any scope (Citus: a reference table or per-key distribution)',
  job_workers: 'the job processes’ heartbeats: the platform’s processes, not a workspace’s',
  job_runs: 'the job each job process runs now, keyed by pg-boss’s job id (pg-boss’s own tables are outside the app’s schema too)',
  clinical_data_keys: 'data keys by scope (a workspace or the mail outbox): read by scope id',
  billing_events: 'Diván’s own billing webhooks, deduplicated by the provider’s event id',
  payment_events: 'the payment provider’s webhooks, deduplicated by event id before the workspace is known',
  sandbox_stripe_objects: 'the built-in payments sandbox (development)',
  payment_accounts: 'a seller’s connected payment account (a therapist’s own or the workspace’s), by holder key',
  invoice_counters: 'invoice numbers per seller and series (a therapist who invoices in their own name does so across workspaces)',
  verifactu_chains: 'VERI*FACTU record chains per issuer tax id, across workspaces',
  verifactu_senders: 'VERI*FACTU sending state per issuer tax id',
  learning_videos: 'Diván’s training library',
  learning_bookmarks: 'a therapist’s place in Diván’s training library',
  learning_progress: 'a therapist’s place in Diván’s training library',
  referral_codes: 'a therapist’s referral code, per account',
  therapist_billing: 'a therapist’s own billing identity, per account',
  chat_office_hours: 'a therapist’s chat hours, per account',
  gift_codes: 'a gift of months of Diván, bought by one workspace and redeemed by another (buyer_workspace_id, redeemed by code)',
};

/** Unique keys of workspace tables without workspace_id, `table.key`: global lookups (a token, a provider's id, a legal series). */
const GLOBAL_KEYS: Record<string, string> = {
  'calendar_feeds.calendar_feeds_token_key': 'a feed is fetched by its token alone (the calendar app knows nothing else)',
  'patient_connections.patient_connections_token_key': 'an invitation link is opened by its token alone',
  'public_bookings.token_hash': 'the booking’s manage link is opened by its token alone',
  'public_bookings.session_id': 'one public booking per session: session ids are UUIDs (becomes (workspace_id, session_id))',
  'measure_administrations.token_hash': 'a questionnaire link is opened by its token alone',
  'billing_customers.customer_id': 'the provider’s customer id, looked up by its webhooks before the workspace is known',
  'billing_subscriptions.subscription_id': 'the provider’s subscription id, looked up by its webhooks',
  'invoice_payments.idempotency_key': 'the provider’s idempotency key, global at the provider',
  'invoice_payments.checkout_id': 'the provider’s checkout id, looked up by its webhooks',
  'invoice_payments.intent_id': 'the provider’s payment intent, looked up by its webhooks',
  'patient_cards.patient_cards_customer_key': 'the provider’s customer per connected account',
  'invoices.invoices_seller_number_key': 'a legal series belongs to its seller, who may invoice from several workspaces (VERI*FACTU)',
  'verifactu_records.verifactu_records_chain_key': 'the chain belongs to the issuer tax id, across workspaces (VERI*FACTU)',
  'learning_purchases.learning_purchases_live_key': 'a therapist buys a video once, whatever the workspace paying',
  'referrals.friend_id': 'an account is referred once',
  'mail_outbox.mail_outbox_key': 'a mail’s idempotency key, of any scope (sign-up mails have no workspace)',
  'history_entries.history_entries_session_key': 'one note per session (a UUID): becomes (workspace_id, session_id)',
  'consent_signers.token_hash': 'a signing link is opened by its token alone',
  'google_busy_calendars.google_busy_calendars_channel_key': 'Google’s push notifications name the channel alone',
  'payment_refunds.refund_id': 'the provider’s refund id, looked up by its webhooks',
};

type Key = { name: string; columns: string[] };
type Tables = Map<string, { columns: string[]; keys: Key[] }>;

async function schema() {
  const files = (readdirSync(src, { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => f.endsWith('.tables.ts'));
  const values: unknown[] = [];
  for (const f of files) values.push(...Object.values((await import(join(src, f))) as Record<string, unknown>));
  return tablesOf(values);
}

function tablesOf(values: unknown[]): Tables {
  const tables: Tables = new Map();
  for (const v of values) {
    if (!is(v, PgTable)) continue;
    const c = getTableConfig(v);
    const colName = (x: unknown) => (x && typeof x === 'object' && 'name' in x ? String((x as { name: string }).name) : '(expression)');
    const keys: Key[] = [
      ...c.columns.filter((x) => x.isUnique).map((x) => ({ name: x.name, columns: [x.name] })),
      ...c.uniqueConstraints.map((u) => ({ name: u.getName()!, columns: u.columns.map((x) => x.name) })),
      ...c.indexes.filter((i) => i.config.unique).map((i) => ({ name: i.config.name!, columns: i.config.columns.map(colName) })),
    ];
    tables.set(c.name, { columns: c.columns.map((x) => x.name), keys });
  }
  return tables;
}

/** The tables without workspace_id that are not listed as global. */
const unlistedOf = (tables: Tables) =>
  [...tables].filter(([name, t]) => !t.columns.includes('workspace_id') && !(name in GLOBAL)).map(([name]) => name);

/** The unique keys of workspace tables without workspace_id, and the listed global keys that have it. */
function keysOf(tables: Tables) {
  const offending: string[] = [];
  const listedAndFine: string[] = [];
  for (const [name, t] of tables) {
    if (!t.columns.includes('workspace_id')) continue;
    for (const k of t.keys) {
      const id = `${name}.${k.name}`;
      const scoped = k.columns.includes('workspace_id');
      if (!scoped && !(id in GLOBAL_KEYS)) offending.push(`${id} (${k.columns.join(', ')})`);
      if (scoped && id in GLOBAL_KEYS) listedAndFine.push(id);
    }
  }
  return { offending, listedAndFine };
}

describe('shard-ready schema', () => {
  it('every table is a workspace’s (with workspace_id) or listed with its reason', async () => {
    const tables = await schema();
    expect(tables.size).toBeGreaterThan(50);
    const unlisted = unlistedOf(tables);
    expect(unlisted, 'tables without workspace_id: add the column, or list the table with its reason').toEqual([]);
    // The lists stay true: a listed table that gained workspace_id comes off them.
    const stale = Object.keys(GLOBAL).filter((n) => tables.get(n)?.columns.includes('workspace_id') && n !== 'workspaces');
    expect(stale, 'listed as without workspace_id, but they have it').toEqual([]);
  });

  it('every unique key of a workspace table includes workspace_id, or is listed as a global lookup', async () => {
    const { offending, listedAndFine } = keysOf(await schema());
    expect(offending, 'unique keys without workspace_id: add it to the key, or list it with its reason').toEqual([]);
    expect(listedAndFine, 'listed as global, but they include workspace_id').toEqual([]);
  });

  it('a new child table without workspace_id fails it, and one whose key leaves workspace_id out', () => {
    const parent = pgTable('shard_probe_parents', { id: uuid('id').primaryKey(), workspaceId: uuid('workspace_id').notNull() });
    const child = pgTable(
      'shard_probe_children',
      { parentId: uuid('parent_id').notNull(), position: integer('position').notNull() },
      (t) => [unique('shard_probe_children_key').on(t.parentId, t.position)],
    );
    const scoped = pgTable(
      'shard_probe_scoped',
      { workspaceId: uuid('workspace_id').notNull(), parentId: uuid('parent_id').notNull(), position: integer('position').notNull() },
      (t) => [unique('shard_probe_scoped_key').on(t.parentId, t.position)],
    );
    expect(unlistedOf(tablesOf([parent, child, scoped]))).toEqual(['shard_probe_children']);
    expect(keysOf(tablesOf([parent, child, scoped])).offending).toEqual([
      'shard_probe_scoped.shard_probe_scoped_key (parent_id, position)',
    ]);
  });
});
