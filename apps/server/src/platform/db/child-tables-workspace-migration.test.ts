// Migration 0061 (issue 31, shard-ready data): the child tables get their parent's workspace_id. Run
// again over a database as it was before it (the column dropped, the old keys back), it fills every row
// from its parent, through the append-only and frozen tables' triggers, and leaves them NOT NULL.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { clinic, type Clinic } from '../../test/session-fixtures';

const migration = readFileSync(resolve(import.meta.dirname, '../../../drizzle/0061_child_tables_workspace.sql'), 'utf8');

/** Each child table, its parent and the column that names it. */
const CHILDREN: [child: string, parent: string, by: string][] = [
  ['consent_envelope_events', 'consent_envelopes', 'envelope_id'],
  ['consent_signers', 'consent_envelopes', 'envelope_id'],
  ['consent_template_versions', 'consent_templates', 'template_id'],
  ['document_tag_links', 'patient_documents', 'document_id'],
  ['google_busy_calendars', 'google_calendar_connections', 'connection_id'],
  ['google_session_events', 'google_calendar_connections', 'connection_id'],
  ['invoice_lines', 'invoices', 'invoice_id'],
  ['history_revisions', 'history_entries', 'entry_id'],
  ['session_pack_uses', 'session_packs', 'pack_id'],
  ['payment_refunds', 'invoice_payments', 'payment_id'],
  ['session_reminder_sends', 'sessions', 'session_id'],
  ['member_roles', 'members', 'member_id'],
];

/** The keys as they were before 0061. */
const OLD_KEYS = `
  ALTER TABLE "consent_signers" ADD CONSTRAINT "consent_signers_envelope_role_key" UNIQUE("envelope_id","role");
  ALTER TABLE "consent_template_versions" ADD CONSTRAINT "consent_template_versions_template_version_key" UNIQUE("template_id","version");
  ALTER TABLE "google_busy_calendars" ADD CONSTRAINT "google_busy_calendars_connection_calendar_key" UNIQUE("connection_id","calendar_id");
  ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_position_key" UNIQUE("invoice_id","position");`;

let t: TestApp;
let c: Clinic;
beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'fragmentos');
}, 60_000);
afterAll(() => t?.close());

const run = async (script: string) => {
  for (const statement of script
    .split(/--> statement-breakpoint|;\n/)
    .map((s) => s.trim())
    .filter((s) => s && !/^(--[^\n]*\n?)+$/.test(s)))
    await t.rows(sql.raw(statement));
};

describe('migration 0061: child tables carry their parent’s workspace_id', () => {
  it('fills every child row from its parent, then NOT NULL with the keys led by workspace_id', async () => {
    // A history entry edited once (a revision); the clinic's members have their roles.
    const path = `/api/v1/workspaces/${c.ws.id}/patients/${c.ana}/history`;
    const entry = json<{ id: string }>(
      await t.post(path, { title: 'Primera', date: '2026-01-10', body: 'a' }, { token: c.owner.accessToken }),
    );
    await t.put(`${path}/${entry.id}`, { title: 'Primera bis', date: '2026-01-10', body: 'b' }, { token: c.owner.accessToken });
    const before = new Map<string, number>();
    for (const [child] of CHILDREN)
      before.set(child, Number((await t.rows<{ n: string }>(sql.raw(`select count(*) as n from "${child}"`)))[0]!.n));
    expect(before.get('member_roles')).toBeGreaterThan(0);
    expect(before.get('history_revisions')).toBeGreaterThan(0);

    // The database as it was before 0061, then 0061 again.
    for (const [child] of CHILDREN) await t.rows(sql.raw(`alter table "${child}" drop column "workspace_id"`));
    await run(OLD_KEYS);
    await run(migration);

    for (const [child, parent, by] of CHILDREN) {
      const [row] = await t.rows<{ n: string; wrong: string }>(
        sql.raw(
          `select count(*) as n, count(*) filter (where c.workspace_id is distinct from p.workspace_id) as wrong
             from "${child}" c left join "${parent}" p on p.id = c."${by}"`,
        ),
      );
      expect([child, Number(row!.n), Number(row!.wrong)]).toEqual([child, before.get(child), 0]);
      const [col] = await t.rows<{ is_nullable: string }>(
        sql`select is_nullable from information_schema.columns where table_name = ${child} and column_name = 'workspace_id'`,
      );
      expect([child, col?.is_nullable]).toEqual([child, 'NO']);
    }
    const [key] = await t.rows<{ def: string }>(
      sql`select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'invoice_lines_position_key'`,
    );
    expect(key!.def).toBe('UNIQUE (workspace_id, invoice_id, "position")');
    // The triggers set aside for the fill are back.
    const triggers = await t.rows<{ tgname: string; tgenabled: string }>(
      sql`select tgname, tgenabled from pg_trigger where tgname in ('invoice_lines_frozen', 'consent_template_versions_no_update', 'consent_envelope_events_no_update_delete') order by tgname`,
    );
    expect(triggers.map((x) => `${x.tgname}:${x.tgenabled}`)).toEqual([
      'consent_envelope_events_no_update_delete:O',
      'consent_template_versions_no_update:O',
      'invoice_lines_frozen:O',
    ]);
  });
});
