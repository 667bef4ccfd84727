import type { Invoice } from '@divan/core';
import type { Db } from '../../../platform/db/database';
import { AppError } from '../../../platform/errors';
import type { AuditService } from '../../audit/audit.service';
import type { SessionInvoicing } from '../../sessions/session-invoicing';
import type { Caller } from '../../../platform/auth/caller';
import { appendRecord, GENERATION_ZONE, lockChain } from './invoice-ledger.queries';
import { invoicesRepository } from '../invoices.repository';
import { sessionIdsOf } from '../invoice-lines';
import type { InvoicesService } from '../invoices.service';
import { cancellationFingerprint, formatGeneratedAt } from '../verifactu/fingerprint';

/** What a cancellation record keeps besides its hashed fields (see verifactu-export.ts). */
export type CancellationDetail = {
  kind: 'cancellation';
  previous: { issuerTaxId: string; number: string; issueDate: string } | null;
  reason: string;
};

/**
 * Voiding a wrongly issued invoice, in VERI*FACTU terms the "anulación" of its registration record:
 * a RegistroAnulacion chained on the issuer's last record (same lock as issuing), the invoice marked
 * `voided` (kept, never deleted; the trigger lets only that change through), its sessions free to be
 * invoiced again, and an audit entry. An invoice whose amount was wrong is corrected by a rectifying
 * invoice instead; this is for one that should not exist (issued twice, to the wrong person…).
 */
export type VoidingDeps = { db: Db; invoices: InvoicesService; audit: AuditService; sessions: SessionInvoicing; clock?: () => Date };

export class InvoiceVoiding {
  private readonly invoices: InvoicesService;
  private readonly now: () => Date;

  constructor(private readonly d: VoidingDeps) {
    this.invoices = d.invoices;
    this.now = d.clock ?? (() => new Date());
  }

  async void(c: Caller, id: string, reason: string): Promise<Invoice> {
    const d = this.d;
    const row = await d.db.transaction(async (tx) => {
      const inv = await this.invoices.accessible(c, id, 'update', tx, true);
      if (inv.status === 'draft') throw new AppError('invoice_void_draft');
      if (inv.status === 'voided') throw new AppError('invoice_already_voided');
      const repo = invoicesRepository(tx);
      if ((await repo.rectifiedBy(inv.id)).some((r) => r.status === 'issued')) throw new AppError('invoice_void_rectified');
      // The record cancelled is the registration as it was recorded (the issuer's tax id, number and date then).
      const registration = await repo.registration(inv.id);
      if (!registration) throw new AppError('invoice_not_issued');
      const head = await lockChain(tx, registration.issuerTaxId);
      const now = this.now();
      // The record's time is the one taken under the chain's lock: never before the record it chains on.
      const generatedAt = formatGeneratedAt(head.generatedAt, GENERATION_ZONE);
      const previousFingerprint = head.previous?.fingerprint ?? null;
      const ref = { issuerTaxId: registration.issuerTaxId, number: registration.invoiceNumber, issueDate: registration.issueDate };
      const detail: CancellationDetail = {
        kind: 'cancellation',
        previous: head.previous
          ? { issuerTaxId: head.previous.issuerTaxId, number: head.previous.invoiceNumber, issueDate: head.previous.issueDate }
          : null,
        reason,
      };
      await appendRecord(tx, {
        ...ref,
        invoiceNumber: ref.number,
        issuerName: registration.issuerName,
        position: head.position,
        recordType: 'cancellation',
        invoiceId: inv.id,
        workspaceId: inv.workspaceId,
        invoiceType: registration.invoiceType,
        vatTotal: registration.vatTotal,
        total: registration.total,
        previousFingerprint,
        fingerprint: cancellationFingerprint({ ...ref, previousFingerprint, generatedAt }),
        generatedAt,
        detail,
      });
      const voided = await repo.update(inv.id, { status: 'voided', voidedAt: now, voidReason: reason });
      await d.sessions.setInvoiced(tx, inv.workspaceId, sessionIdsOf(await repo.lines(inv.id)), false);
      await d.audit.record(tx, {
        workspaceId: inv.workspaceId,
        actorId: c.userId,
        action: 'invoice.voided',
        target: inv.id,
        details: { number: inv.number, reason },
      });
      return voided;
    });
    d.sessions.afterCommit(row.workspaceId);
    return this.invoices.present(c, row);
  }
}
