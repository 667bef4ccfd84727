import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/database';
import { invoiceBatches, type InvoiceBatchRow } from '../invoices.tables';

type BatchError = { patientId: string; message: string };

export function invoiceBatchesRepository(db: DbOrTx) {
  return {
    async insert(values: typeof invoiceBatches.$inferInsert): Promise<InvoiceBatchRow> {
      const [row] = await db.insert(invoiceBatches).values(values).returning();
      return row!;
    },
    async find(workspaceId: string, id: string): Promise<InvoiceBatchRow | undefined> {
      const [row] = await db
        .select()
        .from(invoiceBatches)
        .where(and(eq(invoiceBatches.workspaceId, workspaceId), eq(invoiceBatches.id, id)));
      return row;
    },
    /** The batch by its id alone (its job). */
    async byId(id: string): Promise<InvoiceBatchRow | undefined> {
      const [row] = await db.select().from(invoiceBatches).where(eq(invoiceBatches.id, id));
      return row;
    },
    async running(id: string, total: number): Promise<void> {
      await db.update(invoiceBatches).set({ status: 'running', total, updatedAt: new Date() }).where(eq(invoiceBatches.id, id));
    },
    /** A chunk's outcome added to the batch: `done` groups more, their invoices and errors appended. */
    async progress(id: string, done: number, invoiceIds: string[], errors: BatchError[]): Promise<void> {
      await db
        .update(invoiceBatches)
        .set({
          done: sql`${invoiceBatches.done} + ${done}`,
          invoiceIds: invoiceIds.length ? sql`${invoiceBatches.invoiceIds} || ${JSON.stringify(invoiceIds)}::jsonb` : undefined,
          errors: errors.length ? sql`${invoiceBatches.errors} || ${JSON.stringify(errors)}::jsonb` : undefined,
          updatedAt: new Date(),
        })
        .where(eq(invoiceBatches.id, id));
    },
    /** Failed, with `message` under its creator, unless it had ended already. */
    async failed(id: string, message: string): Promise<void> {
      await db
        .update(invoiceBatches)
        .set({
          status: 'failed',
          errors: sql`${invoiceBatches.errors} || jsonb_build_array(jsonb_build_object('patientId', ${invoiceBatches.createdBy}, 'message', ${message}::text))`,
          updatedAt: new Date(),
        })
        .where(and(eq(invoiceBatches.id, id), sql`${invoiceBatches.status} in ('queued', 'running')`));
    },
    /** Done, or failed when nothing was issued (a batch that issued no invoice is no success); `errors` replace the list when given. */
    async finish(id: string, errors?: BatchError[]): Promise<void> {
      await db
        .update(invoiceBatches)
        .set({
          status: errors
            ? 'failed'
            : sql`case when jsonb_array_length(${invoiceBatches.invoiceIds}) = 0 and jsonb_array_length(${invoiceBatches.errors}) > 0 then 'failed' else 'done' end`,
          ...(errors ? { errors } : {}),
          updatedAt: new Date(),
        })
        .where(eq(invoiceBatches.id, id));
    },
  };
}
