import type { BillingInfo } from '@divan/core';
import type { Db, Tx } from '../../../platform/db/database';
import { AppError } from '../../../platform/errors';
import type { EventBus } from '../../../platform/events/event-bus';
import type { Caller } from '../../../platform/auth/caller';
import type { SessionInvoicing } from '../../sessions/session-invoicing';
import type { ReadCache } from '../invoice-lines';
import type { InvoiceDraftsService, PlannedDraft } from '../invoice-drafts.service';
import type { InvoiceRow } from '../invoices.tables';
import { issuedEvent, type InvoiceIssuing } from '../issuing/invoice-issuing.service';

/** One group of a batch: a patient's sessions, invoiced together. */
export type SessionGroup = { patientId: string; sessionIds: string[] };
export type GroupOutcome = { patientId: string; row: InvoiceRow } | { patientId: string; error: AppError };

export type BatchIssuingDeps = {
  db: Db;
  drafts: InvoiceDraftsService;
  issuing: InvoiceIssuing;
  events: EventBus;
  sessions: SessionInvoicing;
};

/** A batch's chunk drafted and issued with issuing's own checks and statement. */
export class BatchIssuing {
  constructor(private readonly d: BatchIssuingDeps) {}

  /**
   * A chunk of a batch in one transaction, in three steps:
   * 1. its sessions locked and read (one statement, before any number, as drafting from sessions does),
   *    its patients read (one statement);
   * 2. each group's draft checked and computed, and what issuing would refuse checked too: a group that
   *    fails here (an AppError) is answered as its error and nothing of it is written;
   * 3. the other groups' drafts written together (three statements), then issued one by one (one
   *    statement each). An error there rolls the whole chunk back and is thrown: nothing is left half done.
   * `inTx` runs last in the same transaction (the batch's progress).
   */
  async invoiceGroups(
    c: Caller,
    groups: SessionGroup[],
    workspaceBilling: BillingInfo,
    opts: { inTx?: (tx: Tx, outcomes: GroupOutcome[]) => Promise<void> } = {},
  ): Promise<GroupOutcome[]> {
    const cache: ReadCache = new Map();
    const outcomes = await this.d.db.transaction(async (tx) => {
      const sessions = await this.d.sessions.lockForInvoices(tx, c, groups);
      const buyers = await this.d.drafts.buyersOf(
        c,
        groups.map((g) => g.patientId),
        tx,
      );
      const planned: (PlannedDraft | AppError)[] = [];
      for (const [i, g] of groups.entries()) {
        try {
          const buyer = buyers.get(g.patientId)!;
          if (buyer instanceof AppError) throw buyer;
          const plan = await this.d.drafts.planFromSessions(tx, c, g.patientId, sessions[i]!, cache, buyer);
          await this.d.issuing.issuable(tx, plan.values, plan.lines, workspaceBilling, cache);
          planned.push(plan);
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          planned.push(err);
        }
      }
      const drafted = await this.d.drafts.writeDrafts(
        tx,
        planned.filter((p): p is PlannedDraft => !(p instanceof AppError)),
      );
      const issued = new Map<string, InvoiceRow>();
      for (const d of drafted) {
        try {
          issued.set(
            d.row.id,
            await this.d.issuing.issueIn(tx, c, d.row, workspaceBilling, { lines: d.lines, sessionsMarked: true, cache }),
          );
        } catch (err) {
          // Checked before anything was written: a refusal now would leave the chunk's drafts half issued.
          throw err instanceof AppError ? new Error(`a batch's draft refused after the checks: ${err.code}`, { cause: err }) : err;
        }
      }
      const out: GroupOutcome[] = groups.map((g, i) => {
        const p = planned[i]!;
        return p instanceof AppError ? { patientId: g.patientId, error: p } : { patientId: g.patientId, row: issued.get(p.values.id)! };
      });
      await opts.inTx?.(tx, out);
      return out;
    });
    for (const o of outcomes) if ('row' in o) await this.d.events.emit('invoice.issued', issuedEvent(o.row));
    if (outcomes.some((o) => 'row' in o)) this.d.sessions.afterCommit(c.member.workspaceId);
    return outcomes;
  }
}
