import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenantColumns, workspaceColumn } from '../../../platform/db/columns';
// Foreign keys only.
import { invoices } from '../../invoices/invoices.tables';
import { patients } from '../../patients/patients.tables';
import { sessions } from '../../sessions/sessions.tables';
import { users } from '../../users/users.tables';
import { workspaces } from '../../workspaces/workspaces.tables';

/**
 * A pack of sessions (bono) sold to a patient: N sessions at one price, invoiced once when sold.
 * Completed sessions of the patient with the pack's therapist consume it (and are not invoiced again)
 * until it is used up, expires, or its unused part is refunded.
 */
export const sessionPacks = pgTable(
  'session_packs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ...tenantColumns({ workspaces, patients, users }),
    name: text('name').notNull(),
    sessionsTotal: integer('sessions_total').notNull(),
    priceCents: integer('price_cents').notNull(),
    /** The invoice of the sale (issued when the pack is sold). */
    invoiceId: uuid('invoice_id').references(() => invoices.id, { onDelete: 'restrict' }),
    expiresOn: date('expires_on', { mode: 'string' }),
    /** Sessions given back with a refund of the unused part (they can no longer be used). */
    refundedSessions: integer('refunded_sessions').notNull().default(0),
    refundInvoiceId: uuid('refund_invoice_id'),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('session_packs_patient_idx').on(t.patientId),
    check('session_packs_sessions', sql`${t.sessionsTotal} between 1 and 100 and ${t.refundedSessions} between 0 and ${t.sessionsTotal}`),
    check('session_packs_price', sql`${t.priceCents} >= 0`),
  ],
);
export type SessionPackRow = typeof sessionPacks.$inferSelect;

/** A completed session paid by a pack (at most one pack per session). */
export const sessionPackUses = pgTable(
  'session_pack_uses',
  {
    workspaceId: workspaceColumn(workspaces),
    sessionId: uuid('session_id')
      .primaryKey()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    packId: uuid('pack_id')
      .notNull()
      .references(() => sessionPacks.id, { onDelete: 'cascade' }),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('session_pack_uses_pack_idx').on(t.packId)],
);
