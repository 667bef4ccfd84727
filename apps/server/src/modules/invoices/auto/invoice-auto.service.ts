import type { InvoiceSettings } from '@divan/core';
import type { Db, Tx } from '../../../platform/db/database';
import { AppError } from '../../../platform/errors';
import type { Jobs, QueueDefinition } from '../../../platform/jobs/jobs';
import type { Caller } from '../../../platform/auth/caller';
import type { CompletedSession, SessionInvoicing } from '../../sessions/session-invoicing';
import type { WorkspacesService } from '../../workspaces/workspaces.service';
import { invoiceAutoRepository } from './invoice-auto.repository';
import type { InvoiceIssuing } from '../issuing/invoice-issuing.service';
import type { InvoiceDraftsService } from '../invoice-drafts.service';
import type { InvoiceRow } from '../invoices.tables';

const QUEUE = 'invoices.auto';
/** How many of the latest sessions left without an automatic invoice the settings screen shows. */
const SKIPPED_SHOWN = 10;
type Job = { sessionId: string; workspaceId: string; therapistId: string; patientId: string | null };

/**
 * Automatic invoices (Advance and Team plans): a therapist who turned them on gets, for each session
 * they complete, an invoice with one line, the patient as buyer, drafted and issued in one transaction
 * by a job (the batches' code path). The job is enqueued in the completing transaction; it claims the
 * session in `invoice_auto_runs` inside the issuing transaction, so a retried job, or a session
 * completed again, never invoices twice. When no invoice can be issued (the seller's tax data missing,
 * no permission any more, the plan downgraded…) the job records why and does not fail.
 * The plan's feature is the one of batches: spec §1 puts "automatic and batch invoices" together.
 */
export class AutoInvoices {
  constructor(
    private readonly db: Db,
    private readonly jobs: Jobs,
    private readonly drafts: InvoiceDraftsService,
    private readonly issuing: InvoiceIssuing,
    private readonly workspaces: WorkspacesService,
    private readonly sessions: SessionInvoicing,
  ) {
    sessions.onCompleted((tx, s) => this.queueIn(tx, s));
  }

  /** The automatic invoice's queue (defined by the invoices module's entry). */
  readonly queue: QueueDefinition<Job> = {
    name: QUEUE,
    work: (d) => this.work(d),
    expireInSeconds: 120,
    retryLimit: 3,
    retryDelaySeconds: 10,
    pollingIntervalSeconds: 5,
  };

  async settings(c: Caller): Promise<InvoiceSettings> {
    const { workspaceId } = c.member;
    const repo = invoiceAutoRepository(this.db);
    const autoInvoice = await repo.autoInvoice(workspaceId, c.userId);
    const skipped = await repo.skipped(workspaceId, c.userId, SKIPPED_SHOWN);
    return {
      autoInvoice: autoInvoice ?? false,
      autoInvoiceAllowed: await this.allowed(workspaceId),
      skipped: skipped.map((r) => ({ sessionId: r.sessionId, reason: r.reason ?? '', at: r.createdAt.toISOString() })),
    };
  }

  /** The caller's own setting in this workspace; turning it on needs the plan (Basic: `invoice_auto_not_allowed`). */
  async update(c: Caller, b: { autoInvoice: boolean }): Promise<InvoiceSettings> {
    if (b.autoInvoice && !(await this.allowed(c.member.workspaceId))) throw new AppError('invoice_auto_not_allowed');
    await invoiceAutoRepository(this.db).setAutoInvoice(c.member.workspaceId, c.userId, b.autoInvoice, new Date());
    return this.settings(c);
  }

  /** In the completing transaction (only `tx`: PGlite has one connection): the job, when the therapist wants it and the plan allows it. */
  private async queueIn(tx: Tx, s: CompletedSession) {
    const on = await invoiceAutoRepository(tx).autoInvoice(s.workspaceId, s.therapistId);
    if (!on || !(await this.workspaces.featuresOf(s.workspaceId, tx)).canCreateInvoiceBatch) return;
    // Paid by a session pack (its hook runs first): nothing to invoice.
    if (await this.sessions.isInvoiced(tx, s.id)) return;
    await this.jobs.send<Job>(
      QUEUE,
      { sessionId: s.id, workspaceId: s.workspaceId, therapistId: s.therapistId, patientId: s.patientId },
      { key: s.id, tx },
    );
  }

  /** The job: re-reads the setting, the plan and the therapist's permissions, then drafts and issues the invoice. */
  async work(d: Job): Promise<void> {
    const repo = invoiceAutoRepository(this.db);
    if (await repo.ran(d.sessionId)) return;
    if (!(await repo.autoInvoice(d.workspaceId, d.therapistId))) return; // turned off since
    if (!(await this.allowed(d.workspaceId))) return this.skip(d, new AppError('invoice_auto_not_allowed').message);
    if (!d.patientId) return this.skip(d, 'La sesión no tiene paciente a quien facturar.');
    const member = await this.workspaces.resolveMembership(d.workspaceId, d.therapistId);
    if (!member) return this.skip(d, 'Ya no eres miembro de este espacio.');
    const c: Caller = { member, userId: d.therapistId };
    const patientId = d.patientId;
    const workspaceBilling = await this.workspaces.billingInfo(d.workspaceId);
    try {
      const issued = await this.db.transaction(async (tx) => {
        // The claim: a second run of this session (a retry, another process) stops here.
        const claimed = await invoiceAutoRepository(tx).claim({
          sessionId: d.sessionId,
          workspaceId: d.workspaceId,
          therapistId: d.therapistId,
        });
        if (!claimed) return null;
        const draft = await this.drafts.draftFromSessionsIn(tx, c, patientId, [d.sessionId]);
        const row = await this.issuing.issueIn(tx, c, draft.row, workspaceBilling, { lines: draft.lines, sessionsMarked: true });
        await invoiceAutoRepository(tx).setInvoice(d.sessionId, row.id);
        return row;
      });
      if (issued) {
        await this.issuing.afterIssue(issued);
        for (const fn of this.issuedListeners) fn(issued);
      }
    } catch (err) {
      // Missing billing data, no permission, the session invoiced by hand meanwhile…: said once, never retried.
      if (!(err instanceof AppError)) throw err;
      await this.skip(d, err.message);
    }
  }

  private readonly issuedListeners: ((row: InvoiceRow) => void)[] = [];
  /** Called after an automatic invoice is committed (the payments module charges it). */
  onIssued(fn: (row: InvoiceRow) => void) {
    this.issuedListeners.push(fn);
  }

  private async skip(d: Job, reason: string) {
    await invoiceAutoRepository(this.db).skip({ sessionId: d.sessionId, workspaceId: d.workspaceId, therapistId: d.therapistId }, reason);
  }

  private async allowed(workspaceId: string) {
    return (await this.workspaces.featuresOf(workspaceId)).canCreateInvoiceBatch;
  }
}
