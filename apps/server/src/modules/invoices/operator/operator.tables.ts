import { check, integer, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
// Foreign keys only.
import { users } from '../../users/users.tables';
import { workspaces } from '../../workspaces/workspaces.tables';

/**
 * Diván's own workspace (one row): where the invoices Diván issues for its plans live, in Diván's own
 * series and VERI*FACTU chain, owned by the operator's account (OPERATOR_EMAIL) — who signs in and finds
 * them under Facturas like any seller, with the VERI*FACTU export and the AEAT sending.
 */
export const invoiceOperator = pgTable(
  'invoice_operator',
  {
    id: integer('id').primaryKey().default(1),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'restrict' }),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('invoice_operator_single', sql`${t.id} = 1`)],
);
