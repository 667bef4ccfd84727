import {
  DEFAULT_TIME_ZONE,
  batchMessages,
  startOfLocalDay,
  shiftDay,
  type InvoiceBatchBody,
  type InvoiceBatchPreview,
  type InvoiceBatchStatus,
} from '@divan/core';
import type { Db, Tx } from '../../../platform/db/database';
import { AppError } from '../../../platform/errors';
import type { JobContext, Jobs, QueueDefinition } from '../../../platform/jobs/jobs';
import type { Caller } from '../../../platform/auth/caller';
import type { PatientsService } from '../../patients/patients.service';
import type { SessionInvoicing } from '../../sessions/session-invoicing';
import type { WorkspacesService } from '../../workspaces/workspaces.service';
import type { BatchIssuing, GroupOutcome } from './batch-issuing.service';
import type { InvoiceBatchRow } from '../invoices.tables';
import { invoiceBatchesRepository } from './invoice-batches.repository';
import { mayAct } from '../invoice-access';
import { issuerKey, type BatchChecks, type BatchGroup } from './invoice-batch-checks.service';

const QUEUE = 'invoices.batch';
const ZONE = DEFAULT_TIME_ZONE;
const RETRY_LIMIT = 2;
/** A chunk (one transaction) is this many invoices: its commit shows the progress (~0.1 s each on PostgreSQL). */
const CHUNK_INVOICES = 25;
const FAILED =
  'No se pudo terminar el lote por un error inesperado. Las facturas emitidas siguen siendo válidas; vuelve a crear el lote para el resto.';

/**
 * Batches (Advance plan, §5): for a period, one invoice per patient and therapist for their completed,
 * not-yet-invoiced sessions, previewed with issuing's own checks (`BatchChecks`: what «Emitir» would refuse
 * is said first, naming the patient and the issuer), then issued by a job in chunks: one transaction per chunk, whose
 * invoices are checked before anything is written (one that would fail is left out and listed in the
 * errors; see `BatchIssuing.invoiceGroups`), the chunk's progress written in it. The job re-resolves the member's permissions when it
 * runs, a retry picks up what is left (issued sessions are invoiced, so they are not grouped again), and
 * the last failed attempt marks the batch failed.
 */
export class InvoiceBatches {
  constructor(
    private readonly db: Db,
    private readonly jobs: Jobs,
    private readonly issuing: BatchIssuing,
    private readonly sessions: SessionInvoicing,
    private readonly patients: PatientsService,
    private readonly workspaces: WorkspacesService,
    private readonly checks: BatchChecks,
  ) {}

  /** The batch's queue (defined by the invoices module's entry). */
  readonly queue: QueueDefinition<{ batchId: string }> = {
    name: QUEUE,
    work: (d, job) => this.run(d.batchId, job),
    expireInSeconds: 900,
    retryLimit: RETRY_LIMIT,
    retryDelaySeconds: 5,
    pollingIntervalSeconds: 2,
  };

  async preview(c: Caller, b: InvoiceBatchBody): Promise<InvoiceBatchPreview> {
    await this.assertAllowed(c);
    const groups = await this.groups(c, b);
    const issuers = await this.checks.issuerNames(c, groups);
    const problems = await this.checks.judge(c, groups, issuers);
    const [patients, therapists] = await Promise.all([
      this.patients.namesOf(c.member.workspaceId, [...new Set(groups.map((g) => g.patientId))]),
      this.checks.therapistNames(groups.map((g) => g.therapistId)),
    ]);
    const issued = groups.filter((_, i) => !problems[i]);
    return {
      items: groups
        .map((g, i) => ({
          patient: { id: g.patientId, name: patients.get(g.patientId) ?? '' },
          therapistId: g.therapistId,
          therapist: { id: g.therapistId, name: therapists.get(g.therapistId) ?? 'Usuario eliminado' },
          issuer: { ...g.issuer, name: issuers.get(issuerKey(g.issuer)) ?? '' },
          sessions: g.sessionIds.length,
          totalCents: g.totalCents,
          problem: problems[i] ? { code: problems[i].code, message: problems[i].message } : null,
        }))
        .sort((a, b) => a.patient.name.localeCompare(b.patient.name, 'es') || a.therapist.name.localeCompare(b.therapist.name, 'es')),
      invoices: issued.length,
      sessions: issued.reduce((s, g) => s + g.sessionIds.length, 0),
      totalCents: issued.reduce((s, g) => s + g.totalCents, 0),
      refused: groups.length - issued.length,
      issuersIncomplete: this.checks.incomplete(c, groups, problems, issuers),
    };
  }

  /** Queues the batch, unless issuing would refuse every one of its invoices (said as the preview says it). */
  async create(c: Caller, b: InvoiceBatchBody): Promise<InvoiceBatchStatus> {
    await this.assertAllowed(c);
    const groups = await this.groups(c, b);
    if (!groups.length) throw new AppError('invoice_batch_empty');
    const problems = await this.checks.judge(c, groups, await this.checks.issuerNames(c, groups));
    if (problems.every(Boolean))
      throw new AppError('invoice_batch_nothing_issuable', undefined, batchMessages.nothingIssuable(problems[0]!.message));
    const row = await this.db.transaction(async (tx) => {
      const row = await invoiceBatchesRepository(tx).insert({
        workspaceId: c.member.workspaceId,
        createdBy: c.userId,
        from: b.from,
        to: b.to,
        therapistId: b.therapistId ?? null,
        total: groups.length,
      });
      await this.jobs.send(QUEUE, { batchId: row.id }, { key: row.id, tx });
      return row;
    });
    return this.present(row);
  }

  async get(c: Caller, id: string): Promise<InvoiceBatchStatus> {
    const row = await invoiceBatchesRepository(this.db).find(c.member.workspaceId, id);
    if (!row) throw new AppError('invoice_batch_not_found');
    return this.present(row);
  }

  /** The batch with each failure's patient named (an error that is not about a patient has none). */
  private async present(r: InvoiceBatchRow): Promise<InvoiceBatchStatus> {
    const names = r.errors.length
      ? await this.patients.namesOf(r.workspaceId, [...new Set(r.errors.map((e) => e.patientId))])
      : new Map<string, string>();
    return {
      id: r.id,
      from: r.from,
      to: r.to,
      status: r.status,
      total: r.total,
      done: r.done,
      invoiceIds: r.invoiceIds,
      errors: r.errors.map((e) => ({ patientId: e.patientId, patientName: names.get(e.patientId) ?? null, message: e.message })),
      createdAt: r.createdAt.toISOString(),
    };
  }

  /** The job's attempt: an unexpected error on the last one marks the batch failed (else it would show running forever). */
  private async run(batchId: string, job: JobContext): Promise<void> {
    try {
      await this.work(batchId);
    } catch (err) {
      if (job.retryCount >= RETRY_LIMIT) await this.failed(batchId);
      throw err;
    }
  }

  /** The job: the groups drafted and issued chunk by chunk; each chunk's progress committed with its invoices. */
  async work(batchId: string): Promise<void> {
    const batch = await invoiceBatchesRepository(this.db).byId(batchId);
    if (!batch || batch.status === 'done' || batch.status === 'failed') return;
    const member = await this.workspaces.resolveMembership(batch.workspaceId, batch.createdBy);
    if (!member || !member.ability.can('create', 'invoices'))
      return this.finish(batchId, [{ patientId: batch.createdBy, message: batchMessages.lostPermission }]);
    const c: Caller = { member, userId: batch.createdBy };
    const groups = await this.groups(c, { from: batch.from, to: batch.to, therapistId: batch.therapistId ?? undefined });
    await invoiceBatchesRepository(this.db).running(batchId, batch.done + groups.length);
    const workspaceBilling = await this.workspaces.billingInfo(batch.workspaceId);
    const issuers = await this.checks.issuerNames(c, groups);
    for (let next = 0; next < groups.length;) {
      const chunk = groups.slice(next, next + CHUNK_INVOICES);
      // Outcomes come in the chunk's order: a refusal of the seller's data is said naming the group's issuer.
      const outcomes = await this.issuing.invoiceGroups(c, chunk, workspaceBilling, {
        inTx: (tx, out) =>
          this.progress(
            tx,
            batchId,
            out.map((o, i) => ('error' in o ? { ...o, error: this.checks.named(o.error, chunk[i]!, issuers) } : o)),
          ),
      });
      next += outcomes.length;
    }
    await this.finish(batchId);
  }

  /** A chunk's outcome added to the batch, in the chunk's transaction. */
  private async progress(tx: Tx, batchId: string, out: GroupOutcome[]) {
    const ids = out.flatMap((o) => ('row' in o ? [o.row.id] : []));
    const errors = out.flatMap((o) => ('error' in o ? [{ patientId: o.patientId, message: o.error.message }] : []));
    await invoiceBatchesRepository(tx).progress(batchId, out.length, ids, errors);
  }

  private async failed(batchId: string) {
    await invoiceBatchesRepository(this.db).failed(batchId, FAILED);
  }

  /** Done, or failed when nothing was issued (a batch that issued no invoice is no success); `errors` replace the list when given. */
  private async finish(batchId: string, errors?: { patientId: string; message: string }[]) {
    await invoiceBatchesRepository(this.db).finish(batchId, errors);
  }

  private async assertAllowed(c: Caller) {
    if (!(await this.workspaces.featuresOf(c.member.workspaceId)).canCreateInvoiceBatch) throw new AppError('invoice_batch_not_allowed');
  }

  /** The period's completed, not-yet-invoiced sessions the member may invoice, by patient and therapist, each with its issuer (§6). */
  private async groups(c: Caller, b: InvoiceBatchBody): Promise<BatchGroup[]> {
    const from = startOfLocalDay(b.from, ZONE);
    const to = startOfLocalDay(shiftDay(b.to, 1), ZONE);
    const sessions = await this.sessions.uninvoicedInRange(c, from, to, b.therapistId);
    const terms = new Map<string, 'therapist' | 'workspace'>();
    for (const id of new Set(sessions.map((s) => s.therapistId)))
      terms.set(id, (await this.workspaces.memberTerms(c.member.workspaceId, id))?.paymentsReceiver ?? 'therapist');
    const byKey = new Map<string, BatchGroup>();
    for (const s of sessions) {
      const key = `${s.patientId}|${s.therapistId}`;
      const receiver = terms.get(s.therapistId)!;
      const g = byKey.get(key) ?? {
        patientId: s.patientId,
        therapistId: s.therapistId,
        issuer: receiver === 'workspace' ? { kind: 'workspace', id: c.member.workspaceId } : { kind: 'therapist', id: s.therapistId },
        sessions: [],
        sessionIds: [],
        totalCents: 0,
      };
      g.sessions.push(s);
      g.sessionIds.push(s.id);
      g.totalCents += s.price;
      byKey.set(key, g);
    }
    // Only what the member may invoice: their own (or everyone's) invoices, the workspace's when it receives the payments.
    return [...byKey.values()].filter((g) => mayAct(c, 'create', { sellerType: g.issuer.kind, ownerId: g.therapistId }));
  }
}
