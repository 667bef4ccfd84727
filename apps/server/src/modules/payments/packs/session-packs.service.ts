import { DEFAULT_TIME_ZONE, packRefundCents, packStatusOf, refundLinesOfStored, todayIn, toLocal, type Pack } from '@divan/core';
import type { z } from 'zod';
import type { createPackBody } from '@divan/core';
import type { Db, Tx } from '../../../platform/db/database';
import { AppError } from '../../../platform/errors';
import { invoicePaymentState } from '../../invoices/invoice-payment-state';
import type { InvoiceIssuing } from '../../invoices/issuing/invoice-issuing.service';
import type { InvoiceDraftsService } from '../../invoices/invoice-drafts.service';
import type { InvoiceRow } from '../../invoices/invoice-payment-state';
import type { Caller } from '../../../platform/auth/caller';
import type { PatientsService } from '../../patients/patients.service';
import type { CompletedSession, SessionInvoicing } from '../../sessions/session-invoicing';
import type { UsersService } from '../../users/users.service';
import type { WorkspacesService } from '../../workspaces/workspaces.service';
import type { InvoiceRefunds } from '../invoice-refunds.service';
import { paymentLedgerRepository } from '../payment-ledger.repository';
import { sessionPacksRepository } from './session-packs.repository';
import type { SessionPackRow } from './session-packs.tables';

export type PacksDeps = {
  db: Db;
  drafts: InvoiceDraftsService;
  issuing: InvoiceIssuing;
  refunds: InvoiceRefunds;
  patients: PatientsService;
  users: UsersService;
  workspaces: WorkspacesService;
  sessions: SessionInvoicing;
  clock?: () => Date;
};

/**
 * Session packs (bonos): sold to a patient with an invoice issued at once (paid by card or by hand
 * like any invoice), consumed by the patient's completed sessions with the pack's therapist (which
 * are then marked invoiced, so no invoice charges them again), oldest pack first, until used up or
 * expired; the unused part can be refunded (a rectifying invoice, and the card refund when it was
 * paid by card here).
 */
export class SessionPacks {
  constructor(private readonly d: PacksDeps) {
    // Before the automatic invoice's hook: a session a pack pays is not invoiced.
    d.sessions.onCompleted((tx, s) => this.consumeIn(tx, s), { first: true });
  }

  async list(c: Caller, patientId: string): Promise<{ items: Pack[] }> {
    const patient = await this.d.patients.accessible(c, patientId, 'read', 'patient_billing');
    const rows = await sessionPacksRepository(this.d.db).ofPatient(c.member.workspaceId, patient.id);
    return { items: await this.present(rows) };
  }

  /** Sells a pack: its invoice (one line, the pack's price) is drafted and issued in the same transaction. */
  async sell(c: Caller, patientId: string, b: z.output<typeof createPackBody>): Promise<Pack> {
    const patient = await this.d.patients.accessible(c, patientId, 'update', 'patient_billing');
    if (b.expiresOn && b.expiresOn < todayIn(DEFAULT_TIME_ZONE)) throw new AppError('pack_expiry_past');
    const therapistId = b.therapistId ?? patient.assignedTherapistId ?? c.userId;
    const name = b.name?.trim() || `Bono de ${b.sessionsTotal} ${b.sessionsTotal === 1 ? 'sesión' : 'sesiones'}`;
    const workspaceBilling = await this.d.workspaces.billingInfo(c.member.workspaceId);
    const { row, invoice } = await this.d.db.transaction(async (tx) => {
      const draft = await this.d.drafts.draftIn(tx, c, {
        therapistId,
        patientId: patient.id,
        lines: [{ description: name, itemKind: 'therapy', unitPriceCents: b.priceCents, quantity: 1 }],
      });
      const invoice = await this.d.issuing.issueIn(tx, c, draft.row, workspaceBilling, { lines: draft.lines, sessionsMarked: true });
      const row = await sessionPacksRepository(tx).insert({
        workspaceId: c.member.workspaceId,
        patientId: patient.id,
        therapistId,
        name,
        sessionsTotal: b.sessionsTotal,
        priceCents: b.priceCents,
        invoiceId: invoice.id,
        expiresOn: b.expiresOn ?? null,
        createdBy: c.userId,
      });
      return { row, invoice };
    });
    await this.d.issuing.afterIssue(invoice);
    return (await this.present([row]))[0]!;
  }

  /** Refunds the sessions not used: a rectifying invoice for their share of the price (and the card refund when paid by card here). */
  async refund(c: Caller, patientId: string, packId: string, reason: string): Promise<Pack> {
    const patient = await this.d.patients.accessible(c, patientId, 'update', 'patient_billing');
    const pack = await sessionPacksRepository(this.d.db).find(c.member.workspaceId, patient.id, packId);
    if (!pack) throw new AppError('pack_not_found');
    const used = await sessionPacksRepository(this.d.db).usedOf(pack.id);
    const unused = pack.sessionsTotal - used - pack.refundedSessions;
    if (unused <= 0 || pack.refundedSessions > 0 || !pack.invoiceId) throw new AppError('pack_nothing_to_refund');
    const amount = packRefundCents(pack.priceCents, pack.sessionsTotal, unused);
    const why = `${reason} (${unused} ${unused === 1 ? 'sesión' : 'sesiones'} sin usar del ${pack.name.toLowerCase()})`;
    const { charged, refunded } = await paymentLedgerRepository(this.d.db).sums(pack.invoiceId);
    let rectifyingId: string | null;
    if (charged - refunded >= amount) {
      rectifyingId = (await this.d.refunds.refund(c, pack.invoiceId, { amountCents: amount, reason: why })).rectifying?.id ?? null;
    } else {
      const lines = await invoicePaymentState.lines(this.d.db, pack.invoiceId);
      const plan = refundLinesOfStored(lines, amount);
      const rect = await this.d.issuing.rectify(c, pack.invoiceId, {
        method: 'difference',
        reason: `Devolución de bono: ${why}`.slice(0, 300),
        lines: plan.lines.map((l) => ({
          ...l,
          itemKind: 'therapy' as const,
          vatRate: l.vatRate as 0 | 4 | 10 | 21,
          withholdingRate: l.withholdingRate as 0 | 7 | 15 | 19,
          sessionId: null,
        })),
      });
      rectifyingId = rect.id;
    }
    const row = await sessionPacksRepository(this.d.db).setRefunded(pack.id, unused, rectifyingId);
    return (await this.present([row]))[0]!;
  }

  /**
   * In the completing transaction: the oldest pack of the patient with this therapist that still has
   * sessions and had not expired on the session's day pays it (the session becomes invoiced).
   */
  async consumeIn(tx: Tx, s: CompletedSession): Promise<void> {
    if (!s.patientId) return;
    const day = toLocal(s.startsAt, s.timeZone).day;
    const repo = sessionPacksRepository(tx);
    const packs = await repo.usableOn({ workspaceId: s.workspaceId, patientId: s.patientId, therapistId: s.therapistId }, day);
    if (!packs.length) return;
    if (await repo.usedBy(s.id)) return;
    if (await this.d.sessions.isInvoiced(tx, s.id)) return;
    for (const p of packs) {
      if ((await repo.usedOf(p.id)) >= p.sessionsTotal) continue;
      await repo.use(s.workspaceId, s.id, p.id);
      await this.d.sessions.setInvoiced(tx, s.workspaceId, [s.id], true);
      return;
    }
  }

  /** A session that consumed a pack was canceled after all: the pack gets it back, and it is no longer invoiced. */
  async release(workspaceId: string, sessionId: string): Promise<void> {
    await this.d.db.transaction(async (tx) => {
      if (await sessionPacksRepository(tx).release(sessionId)) await this.d.sessions.setInvoiced(tx, workspaceId, [sessionId], false);
    });
    this.d.sessions.afterCommit(workspaceId);
  }

  private async present(rows: SessionPackRow[]): Promise<Pack[]> {
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id);
    const used = await sessionPacksRepository(this.d.db).usedOfMany(ids);
    const invoiceIds = rows.flatMap((r) => [r.invoiceId, r.refundInvoiceId]).filter((x): x is string => !!x);
    const invoices = new Map(
      (await Promise.all(invoiceIds.map((id) => invoicePaymentState.find(this.d.db, id))))
        .filter((r): r is InvoiceRow => !!r)
        .map((r) => [r.id, r]),
    );
    const users = new Map(
      (await this.d.users.findManyByIds(rows.map((r) => r.therapistId))).map((u) => [
        u.id,
        [u.firstName, u.lastName].filter(Boolean).join(' '),
      ]),
    );
    const today = todayIn(DEFAULT_TIME_ZONE);
    return rows.map((r) => {
      const n = used.get(r.id) ?? 0;
      const inv = r.invoiceId ? invoices.get(r.invoiceId) : undefined;
      const rect = r.refundInvoiceId ? invoices.get(r.refundInvoiceId) : undefined;
      return {
        id: r.id,
        name: r.name,
        therapist: { id: r.therapistId, name: users.get(r.therapistId) ?? 'Usuario eliminado' },
        sessionsTotal: r.sessionsTotal,
        sessionsUsed: n,
        sessionsLeft: Math.max(0, r.sessionsTotal - n - r.refundedSessions),
        refundedSessions: r.refundedSessions,
        priceCents: r.priceCents,
        expiresOn: r.expiresOn,
        status: packStatusOf(
          { sessionsTotal: r.sessionsTotal, used: n, refundedSessions: r.refundedSessions, expiresOn: r.expiresOn },
          today,
        ),
        invoice: inv ? { id: inv.id, number: inv.number, paymentStatus: inv.paymentStatus } : null,
        refundInvoice: rect ? { id: rect.id, number: rect.number } : null,
        createdAt: r.createdAt.toISOString(),
      };
    });
  }
}
