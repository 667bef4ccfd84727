import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/database';
import { invoiceOperator } from './operator.tables';

/** The one row naming Diván's own workspace. */
export const operatorRepository = (db: DbOrTx) => ({
  /** Orders the servers that would make it at once: held until the transaction ends. */
  async lock(): Promise<void> {
    await db.execute(sql`select pg_advisory_xact_lock(hashtext('divan:invoice_operator'))`);
  },
  async get() {
    const [row] = await db.select().from(invoiceOperator).limit(1);
    return row ?? null;
  },
  async insert(workspaceId: string, ownerId: string) {
    const [row] = await db.insert(invoiceOperator).values({ workspaceId, ownerId }).returning();
    return row!;
  },
});
