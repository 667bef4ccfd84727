import { randomUUID } from 'node:crypto';
import type { BuyerKind, Invoice, InvoiceBuyer, createInvoiceBody, updateInvoiceBody } from '@divan/core';
import type { z } from 'zod';
import type { Db, DbOrTx, Tx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { AuditService } from '../audit/audit.service';
import type { Caller } from '../../platform/auth/caller';
import type { PatientsService } from '../patients/patients.service';
import type { InvoiceableSession, SessionInvoicing } from '../sessions/session-invoicing';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import type { BillingProfiles } from './settings/billing-profiles.service';
import { bodyOf, lineRowsOf, readOnce, sessionIdsOf, sessionLines, totalsOf, type LineBody, type ReadCache } from './invoice-lines';
import { givenBuyer, patientAsBuyer } from './invoice-parties';
import { invoiceScope, mayAct } from './invoice-access';
import { invoicesRepository } from './invoices.repository';
import type { InvoicesService } from './invoices.service';
import type { invoiceLines, invoices, InvoiceLineRow, InvoiceParty, InvoiceRow } from './invoices.tables';

type Create = z.output<typeof createInvoiceBody>;
type Update = z.output<typeof updateInvoiceBody>;
export type InvoiceDraftDeps = {
  db: Db;
  /** Access to an invoice and its presenting (the reading side). */
  invoices: InvoicesService;
  patients: PatientsService;
  workspaces: WorkspacesService;
  sessions: SessionInvoicing;
  billing: BillingProfiles;
  audit: AuditService;
};

/** A draft just written in a transaction, with its lines (nothing needs reading back). */
export type Drafted = { row: InvoiceRow; lines: InvoiceLineRow[] };
/** A draft checked and computed, not yet written (`writeDrafts`): its row, its lines, the sessions it invoices. */
export type PlannedDraft = {
  values: typeof invoices.$inferInsert & { id: string; workspaceId: string };
  lines: Omit<typeof invoiceLines.$inferInsert, 'invoiceId' | 'workspaceId'>[];
  sessionIds: string[];
};

/**
 * Drafts: free to edit and delete; made by hand, from sessions, by a batch, an automatic invoice or a
 * pack's sale. The buyer (given, or the patient's billing info), the seller's terms, the lines with their
 * taxes and totals, and the sessions they mark invoiced. Seller: the owner therapist's membership decides
 * (payments receiver, §6). Reading and presenting is invoices.service.ts.
 */
export class InvoiceDraftsService {
  constructor(private readonly d: InvoiceDraftDeps) {}

  async createDraft(c: Caller, b: Create): Promise<Invoice> {
    const { row } = await this.d.db.transaction((tx) => this.createDraftIn(tx, c, b));
    this.d.sessions.afterCommit(c.member.workspaceId);
    return this.d.invoices.present(c, row);
  }

  /** A draft with one line per completed, not-yet-invoiced session of the patient, at the session's price. */
  async fromSessions(c: Caller, patientId: string, sessionIds: string[]): Promise<Invoice> {
    const patient = await this.d.patients.accessible(c, patientId);
    const done = await this.d.db.transaction((tx) => this.draftFromSessionsIn(tx, c, patient.id, sessionIds));
    this.d.sessions.afterCommit(c.member.workspaceId);
    return this.d.invoices.present(c, done.row);
  }

  /** The draft of `fromSessions` inside `tx` (an automatic invoice issues it in the same transaction); its sessions are locked and marked invoiced. */
  async draftFromSessionsIn(tx: Tx, c: Caller, patientId: string, sessionIds: string[], cache?: ReadCache): Promise<Drafted> {
    const sessions = await this.d.sessions.lockForInvoice(tx, c, patientId, sessionIds);
    const [drafted] = await this.writeDrafts(tx, [await this.planFromSessions(tx, c, patientId, sessions, cache)]);
    return drafted!;
  }

  /**
   * A draft of the patient's sessions (locked by the caller; null when not all of them are the patient's,
   * completed and readable), one line per session at its price: checked and computed, nothing written.
   * `buyer`: the patient as buyer, when the caller read it already (a batch reads its patients together).
   */
  async planFromSessions(
    tx: Tx,
    c: Caller,
    patientId: string,
    sessions: InvoiceableSession[] | null,
    cache?: ReadCache,
    buyer?: InvoiceParty | null,
  ): Promise<PlannedDraft> {
    if (!sessions) throw new AppError('invoice_session_not_found');
    if (sessions.some((s) => s.invoiced)) throw new AppError('invoice_session_invoiced');
    return this.planDraft(tx, c, { therapistId: sessions[0]!.therapistId, patientId, lines: sessionLines(sessions) }, cache, buyer);
  }

  /** A new draft inside the caller's transaction (a pack's sale issues it in the same one). */
  draftIn(tx: Tx, c: Caller, b: Pick<Create, 'therapistId' | 'patientId' | 'lines'>): Promise<Drafted> {
    return this.createDraftIn(tx, c, b);
  }

  /** A new draft and its lines, written once (totals computed before the insert); its sessions locked and marked invoiced. */
  private async createDraftIn(
    tx: Tx,
    c: Caller,
    b: Pick<Create, 'therapistId' | 'patientId' | 'lines'> & Partial<Create>,
  ): Promise<Drafted> {
    const plan = await this.planDraft(tx, c, b);
    if (plan.sessionIds.length) await this.lockSessions(tx, c, plan.values.patientId ?? null, plan.sessionIds);
    const [drafted] = await this.writeDrafts(tx, [plan]);
    return drafted!;
  }

  /** A new draft checked and computed (seller, buyer, lines with their taxes, totals), nothing written; any AppError is thrown here. */
  async planDraft(
    tx: Tx,
    c: Caller,
    b: Pick<Create, 'therapistId' | 'patientId' | 'lines'> & Partial<Create>,
    cache?: ReadCache,
    buyer?: InvoiceParty | null,
  ): Promise<PlannedDraft> {
    const ownerId = b.therapistId ?? c.userId;
    const terms = await readOnce(cache, `terms:${ownerId}`, () => this.d.workspaces.memberTerms(c.member.workspaceId, ownerId, tx));
    if (!terms) throw new AppError('invalid_argument', [{ path: 'therapistId', message: 'Ese terapeuta no es miembro de este espacio.' }]);
    if (!mayAct(c, 'create', { sellerType: terms.paymentsReceiver, ownerId })) throw new AppError('access_denied');
    const patientId = b.patientId ?? null;
    const head = {
      ownerId,
      sellerType: terms.paymentsReceiver,
      buyer: buyer !== undefined ? buyer : await this.buyerOf(c, patientId, b.buyer ?? null, tx),
    };
    const lines = await this.lineRows(tx, head, b.lines, cache);
    const values = {
      ...head,
      ...totalsOf(lines),
      id: randomUUID(),
      workspaceId: c.member.workspaceId,
      sellerKey: terms.paymentsReceiver === 'workspace' ? `workspace:${c.member.workspaceId}` : `user:${ownerId}`,
      patientId,
      footer: b.footer ?? null,
      chargeDate: b.chargeDate ?? null,
      createdBy: c.userId,
    };
    return { values, lines, sessionIds: [...new Set(b.lines.map((l) => l.sessionId).filter((x): x is string => !!x))] };
  }

  /** Planned drafts written with their lines, and their sessions marked invoiced: three statements however many drafts (a batch's chunk). */
  async writeDrafts(tx: Tx, plans: PlannedDraft[]): Promise<Drafted[]> {
    const repo = invoicesRepository(tx);
    const rows = new Map((await repo.insertMany(plans.map((p) => p.values))).map((r) => [r.id, r]));
    const lines = await repo.insertLinesOf(
      plans.flatMap((p) => p.lines.map((l) => ({ ...l, workspaceId: p.values.workspaceId, invoiceId: p.values.id }))),
    );
    if (plans.length)
      await this.d.sessions.setInvoiced(
        tx,
        plans[0]!.values.workspaceId,
        plans.flatMap((p) => p.sessionIds),
        true,
      );
    const linesOf = new Map(plans.map((p) => [p.values.id, [] as InvoiceLineRow[]]));
    for (const l of lines) linesOf.get(l.invoiceId)!.push(l);
    return plans.map((p) => ({ row: rows.get(p.values.id)!, lines: linesOf.get(p.values.id)!.sort((x, y) => x.position - y.position) }));
  }

  private async lockSessions(tx: Tx, c: Caller, patientId: string | null, ids: string[]) {
    if (!patientId) throw new AppError('invoice_session_not_found');
    const sessions = await this.d.sessions.lockForInvoice(tx, c, patientId, ids);
    if (!sessions) throw new AppError('invoice_session_not_found');
    if (sessions.some((s) => s.invoiced)) throw new AppError('invoice_session_invoiced');
  }

  async updateDraft(c: Caller, id: string, b: Update): Promise<Invoice> {
    const done = await this.d.db.transaction(async (tx) => {
      const row = await this.d.invoices.accessible(c, id, 'update', tx, true);
      if (row.status !== 'draft') throw new AppError('invoice_issued');
      const patientId = b.patientId === undefined ? row.patientId : b.patientId;
      const buyer = b.buyer !== undefined || b.patientId !== undefined ? await this.buyerOf(c, patientId, b.buyer ?? null, tx) : row.buyer;
      const updated = await invoicesRepository(tx).update(row.id, {
        patientId,
        buyer,
        ...(b.footer !== undefined ? { footer: b.footer } : {}),
        ...(b.chargeDate !== undefined ? { chargeDate: b.chargeDate } : {}),
      });
      if (b.lines) await this.writeLines(tx, c, updated, b.lines);
      // A new buyer (given, or the patient's): each line's withholding follows them again.
      else if (b.buyer !== undefined || b.patientId !== undefined)
        await this.writeLines(tx, c, updated, (await invoicesRepository(tx).lines(row.id)).map(bodyOf));
      return (await invoicesRepository(tx).find(c.member.workspaceId, row.id, invoiceScope(c)))!;
    });
    this.d.sessions.afterCommit(c.member.workspaceId);
    return this.d.invoices.present(c, done);
  }

  async deleteDraft(c: Caller, id: string): Promise<void> {
    await this.d.db.transaction(async (tx) => {
      const row = await this.d.invoices.accessible(c, id, 'delete', tx, true);
      if (row.status !== 'draft') throw new AppError('invoice_issued');
      const lines = await invoicesRepository(tx).lines(row.id);
      await this.d.sessions.setInvoiced(tx, row.workspaceId, sessionIdsOf(lines), false);
      await invoicesRepository(tx).delete(row.id);
      await this.d.audit.record(tx, {
        workspaceId: row.workspaceId,
        actorId: c.userId,
        action: 'invoice.draft_deleted',
        target: row.id,
        details: { total: row.total },
      });
    });
    this.d.sessions.afterCommit(c.member.workspaceId);
  }

  /** For rectifying drafts built by the issuing side. */
  writeLinesOf(tx: Tx, c: Caller, row: InvoiceRow, lines: LineBody[]) {
    return this.writeLines(tx, c, row, lines);
  }

  /**
   * Replaces a draft's lines: each line's taxes default to the rule of its kind and the buyer, totals are
   * computed per line in cents; sessions leaving the draft are no longer invoiced, new ones are.
   */
  private async writeLines(tx: Tx, c: Caller, row: InvoiceRow, lines: LineBody[]) {
    const repo = invoicesRepository(tx);
    const before = sessionIdsOf(await repo.lines(row.id));
    const wanted = [...new Set(lines.map((l) => l.sessionId).filter((x): x is string => !!x))];
    const added = wanted.filter((id) => !before.includes(id));
    if (added.length) await this.lockSessions(tx, c, row.patientId, added);
    const rows = await this.lineRows(tx, row, lines);
    await repo.replaceLines(row, rows);
    await repo.update(row.id, totalsOf(rows));
    await this.d.sessions.setInvoiced(
      tx,
      row.workspaceId,
      before.filter((id) => !wanted.includes(id)),
      false,
    );
    await this.d.sessions.setInvoiced(tx, row.workspaceId, added, true);
  }

  /** The lines as stored: each line's taxes default to the rule of its kind and the buyer; totals per line in cents. */
  private async lineRows(tx: Tx, inv: Pick<InvoiceRow, 'buyer' | 'sellerType' | 'ownerId'>, lines: LineBody[], cache?: ReadCache) {
    const buyerKind: BuyerKind = (inv.buyer?.kind as BuyerKind | undefined) ?? 'patient';
    const withholdingRate =
      inv.sellerType === 'therapist'
        ? (await readOnce(cache, `billing:${inv.ownerId}`, () => this.d.billing.get(inv.ownerId, tx))).withholdingRate
        : 15;
    return lineRowsOf(lines, buyerKind, withholdingRate);
  }

  /** The buyer as given, else the patient's billing info (their name when they have none). */
  async buyerOf(c: Caller, patientId: string | null, given: InvoiceBuyer | null, tx: DbOrTx): Promise<InvoiceParty | null> {
    if (given) return givenBuyer(given);
    if (!patientId) return null;
    return patientAsBuyer(await this.d.patients.accessible(c, patientId, 'read', 'patient_files', tx));
  }

  /** `buyerOf` several patients in one read (a batch's chunk): each one's buyer, or the error reading them throws. */
  async buyersOf(c: Caller, patientIds: string[], tx: DbOrTx): Promise<Map<string, InvoiceParty | AppError>> {
    const found = await this.d.patients.accessibleMany(c, patientIds, 'read', 'patient_files', tx);
    return new Map([...found].map(([id, p]) => [id, p instanceof AppError ? p : patientAsBuyer(p)]));
  }
}
