import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/database';
import { invoiceAutoRuns, invoiceMemberSettings } from './invoice-auto.tables';

type Run = { sessionId: string; workspaceId: string; therapistId: string };

export function invoiceAutoRepository(db: DbOrTx) {
  return {
    /** Whether the member turned automatic invoices on in the workspace (undefined: never set). */
    async autoInvoice(workspaceId: string, userId: string): Promise<boolean | undefined> {
      const [row] = await db
        .select({ on: invoiceMemberSettings.autoInvoice })
        .from(invoiceMemberSettings)
        .where(and(eq(invoiceMemberSettings.workspaceId, workspaceId), eq(invoiceMemberSettings.userId, userId)));
      return row?.on;
    },
    async setAutoInvoice(workspaceId: string, userId: string, autoInvoice: boolean, updatedAt: Date): Promise<void> {
      await db
        .insert(invoiceMemberSettings)
        .values({ workspaceId, userId, autoInvoice, updatedAt })
        .onConflictDoUpdate({
          target: [invoiceMemberSettings.workspaceId, invoiceMemberSettings.userId],
          set: { autoInvoice, updatedAt },
        });
    },
    /** The latest sessions of a therapist left without an automatic invoice, newest first. */
    skipped(workspaceId: string, therapistId: string, limit: number) {
      return db
        .select()
        .from(invoiceAutoRuns)
        .where(
          and(
            eq(invoiceAutoRuns.workspaceId, workspaceId),
            eq(invoiceAutoRuns.therapistId, therapistId),
            eq(invoiceAutoRuns.status, 'skipped'),
          ),
        )
        .orderBy(desc(invoiceAutoRuns.createdAt))
        .limit(limit);
    },
    /** Whether the session has a run already (issued or skipped). */
    async ran(sessionId: string): Promise<boolean> {
      const [done] = await db
        .select({ status: invoiceAutoRuns.status })
        .from(invoiceAutoRuns)
        .where(eq(invoiceAutoRuns.sessionId, sessionId));
      return !!done;
    },
    /** The claim of a session's run: false when another run has it. */
    async claim(run: Run): Promise<boolean> {
      const [claim] = await db
        .insert(invoiceAutoRuns)
        .values({ ...run, status: 'issued' })
        .onConflictDoNothing()
        .returning();
      return !!claim;
    },
    async setInvoice(sessionId: string, invoiceId: string): Promise<void> {
      await db.update(invoiceAutoRuns).set({ invoiceId }).where(eq(invoiceAutoRuns.sessionId, sessionId));
    },
    async skip(run: Run, reason: string): Promise<void> {
      await db
        .insert(invoiceAutoRuns)
        .values({ ...run, status: 'skipped', reason })
        .onConflictDoNothing();
    },
  };
}
