import {
  DEFAULT_TIME_ZONE,
  isValidSpanishTaxId,
  normalizeTaxId,
  seriesPrefixes,
  todayIn,
  type BillingInfo,
  type Invoice,
} from '@divan/core';
import type { z } from 'zod';
import type { payInvoiceBody, rectifyInvoiceBody } from '@divan/core';
import type { EventBus } from '../../../platform/events/event-bus';
import type { Db, Tx } from '../../../platform/db/database';
import { AppError } from '../../../platform/errors';
import type { AuditService } from '../../audit/audit.service';
import type { SessionInvoicing } from '../../sessions/session-invoicing';
import type { WorkspacesService } from '../../workspaces/workspaces.service';
import type { BillingProfiles } from '../settings/billing-profiles.service';
import type { Caller } from '../../../platform/auth/caller';
import { issueAndRecord, issuedAuditDetails } from './invoice-ledger.queries';
import { invoicesRepository } from '../invoices.repository';
import { readOnce, sessionIdsOf, type ReadCache } from '../invoice-lines';
import { checkBuyerTaxes, type BuyerTaxLine } from '../invoice-parties';
import type { InvoiceDraftsService } from '../invoice-drafts.service';
import type { InvoicesService } from '../invoices.service';
import type { InvoiceLineRow, InvoiceParty, InvoiceRow, VerifactuRecordRow } from '../invoices.tables';
import { registrationAmounts } from '../verifactu/amounts';
import { registrationHashParts, type InvoiceType } from '../verifactu/fingerprint';

const ZONE = DEFAULT_TIME_ZONE;

export type IssueOptions = {
  /** The draft's lines, when this transaction just wrote them (not read again). */
  lines?: InvoiceLineRow[];
  /** The lines' sessions were locked and marked invoiced in this transaction (a draft made from sessions). */
  sessionsMarked?: boolean;
  /** Reads shared by the invoices of one transaction (a batch's chunk). */
  cache?: ReadCache;
};
export type Issued = { row: InvoiceRow; lines: InvoiceLineRow[]; record: VerifactuRecordRow };
type Seller = InvoiceParty & { taxId: string; prefix: string };
type IssuableDraft = Pick<InvoiceRow, 'sellerType' | 'workspaceId' | 'ownerId'> & {
  kind?: InvoiceRow['kind'];
  rectificationMethod?: InvoiceRow['rectificationMethod'];
  total?: number;
  buyer?: InvoiceParty | null;
};
export type IssuingDeps = {
  db: Db;
  invoices: InvoicesService;
  drafts: InvoiceDraftsService;
  events: EventBus;
  audit: AuditService;
  sessions: SessionInvoicing;
  workspaces: WorkspacesService;
  billing: BillingProfiles;
  clock?: () => Date;
};

/**
 * Issuing (number, seller and buyer frozen, VERI*FACTU registration record chained on the issuer's
 * last one, all in one transaction), recording a payment, and correcting by a rectifying invoice.
 */
export class InvoiceIssuing {
  private readonly invoices: InvoicesService;
  private readonly drafts: InvoiceDraftsService;
  private readonly events: EventBus;
  private readonly now: () => Date;

  constructor(private readonly d: IssuingDeps) {
    this.invoices = d.invoices;
    this.drafts = d.drafts;
    this.events = d.events;
    this.now = d.clock ?? (() => new Date());
  }

  async issue(c: Caller, id: string): Promise<Invoice> {
    const issued = await this.d.db.transaction(async (tx) => {
      const { row: draft, lines } = await this.invoices.accessibleWithLines(c, id, 'update', tx, true);
      if (draft.status !== 'draft') throw new AppError('invoice_issued');
      return this.issueWith(tx, c, draft, undefined, { lines });
    });
    await this.afterIssue(issued.row);
    return this.invoices.presentIssued(c, issued.row, issued.lines, issued.record);
  }

  /**
   * Issues a locked draft inside `tx`: the seller's next number, frozen parties, the chained record.
   * `workspaceBilling`: the workspace's billing data when the caller already has it (a batch reads it once);
   * otherwise it is read in `tx`, and only when the workspace is the seller.
   */
  async issueIn(tx: Tx, c: Caller, draft: InvoiceRow, workspaceBilling?: BillingInfo, opts: IssueOptions = {}): Promise<InvoiceRow> {
    return (await this.issueWith(tx, c, draft, workspaceBilling, opts)).row;
  }

  /** `issueIn`, answering with what it wrote (the lines and the registration record) for presenting without reading back. */
  async issueWith(tx: Tx, c: Caller, draft: InvoiceRow, workspaceBilling?: BillingInfo, opts: IssueOptions = {}): Promise<Issued> {
    const repo = invoicesRepository(tx);
    const lines = opts.lines ?? (await repo.lines(draft.id));
    const read = draft.buyer ?? (draft.patientId ? await this.drafts.buyerOf(c, draft.patientId, null, tx) : null);
    const issuable = await this.issuable(tx, { ...draft, buyer: read }, lines, workspaceBilling, opts.cache);
    const { buyer } = issuable;
    const { prefix: sellerPrefix, ...seller } = issuable.seller;
    const now = this.now();
    const issueDate = todayIn(ZONE, now);
    const year = Number(issueDate.slice(0, 4));
    // The seller's prefix as it is now: a new prefix starts a new series (the counter is per prefix).
    const prefix = seriesPrefixes(sellerPrefix)[draft.kind === 'rectifying' ? 'rectifying' : 'ordinary'];
    const fields = {
      status: 'issued' as const,
      series: `${prefix}${year}`,
      issueDate,
      issuedAt: now,
      seller,
      buyer,
      updatedAt: new Date(),
    };
    const invoiceType = typeOf(draft, buyer);
    // CuotaTotal and ImporteTotal as the AEAT defines them (the withholding is no part of them); the time is taken by the statement, under the chain's lock.
    const { vatTotalCents, totalCents } = registrationAmounts(lines);
    const rectified = draft.rectifiesId
      ? await repo.find(draft.workspaceId, draft.rectifiesId, { therapist: { kind: 'all' }, workspace: true })
      : undefined;
    // Nothing above takes a lock shared with other issues: the series and the chain are locked by the one statement below, until the commit.
    const audit = this.d.audit.statement(tx, {
      workspaceId: draft.workspaceId,
      actorId: c.userId,
      action: 'invoice.issued',
      target: draft.id,
      details: issuedAuditDetails(draft.total),
    });
    const { sequence, number, record } = await issueAndRecord(
      tx,
      { sellerKey: draft.sellerKey, kind: draft.kind, year, prefix },
      draft.id,
      fields,
      {
        issuerTaxId: seller.taxId,
        issuerName: seller.fullName,
        recordType: 'registration',
        invoiceId: draft.id,
        workspaceId: draft.workspaceId,
        issueDate,
        invoiceType,
        vatTotal: vatTotalCents,
        total: totalCents,
        hashParts: registrationHashParts({ issuerTaxId: seller.taxId, issueDate, invoiceType, vatTotalCents, totalCents }),
        detail: {
          buyer: { name: buyer.fullName, taxId: buyer.taxId, ...(buyer.countryCode ? { countryCode: buyer.countryCode } : {}) },
          lines: lines.map((l) => ({ vatRate: l.vatRate, exemption: l.exemption, base: l.base, vat: l.vat })),
          rectifies: rectified
            ? {
                number: rectified.number,
                issueDate: rectified.issueDate,
                method: draft.rectificationMethod,
                base: rectified.subtotal,
                vat: rectified.vat,
              }
            : null,
          description: lines
            .map((l) => l.description)
            .join('; ')
            .slice(0, 500),
        },
      },
      [audit],
    );
    // The row as the statement left it: the draft was locked by this transaction, so only these fields changed.
    const issued: InvoiceRow = { ...draft, ...fields, sequence, number };
    if (!opts.sessionsMarked) await this.d.sessions.setInvoiced(tx, issued.workspaceId, sessionIdsOf(lines), true);
    return { row: issued, lines, record };
  }

  /** After the commit: the event's handlers (caches, the AEAT's sending) have run when it resolves. */
  async afterIssue(row: InvoiceRow) {
    await this.events.emit('invoice.issued', issuedEvent(row));
    this.d.sessions.afterCommit(row.workspaceId);
  }

  /** A payment recorded by hand (transfer, cash…): only for an issued, pending invoice. */
  async pay(c: Caller, id: string, b: z.output<typeof payInvoiceBody>): Promise<Invoice> {
    const row = await this.d.db.transaction(async (tx) => {
      const current = await this.invoices.accessible(c, id, 'update', tx, true);
      if (current.status !== 'issued') throw new AppError('invoice_not_issued');
      if (current.paymentStatus === 'paid') throw new AppError('invoice_already_paid');
      const paidAt = b.paidOn ? new Date(`${b.paidOn}T12:00:00Z`) : this.now();
      const row = await invoicesRepository(tx).update(current.id, { paymentStatus: 'paid', paymentType: b.paymentType, paidAt });
      await this.d.audit.record(tx, {
        workspaceId: row.workspaceId,
        actorId: c.userId,
        action: 'invoice.paid',
        target: row.id,
        details: { number: row.number, paymentType: b.paymentType },
      });
      return row;
    });
    await this.events.emit('invoice.paid', { workspaceId: row.workspaceId, invoiceId: row.id, amountCents: row.total });
    return this.invoices.present(c, row);
  }

  /**
   * Corrects an issued invoice with a rectifying one, issued at once in its own series: by difference
   * (the lines are the differences; none given: the whole invoice negated, i.e. cancelled) or by
   * substitution (the lines are the corrected invoice; none: cancelled).
   */
  async rectify(c: Caller, id: string, b: z.output<typeof rectifyInvoiceBody>): Promise<Invoice> {
    const row = await this.d.db.transaction((tx) => this.rectifyIn(tx, c, id, b));
    await this.afterIssue(row);
    return this.invoices.present(c, row);
  }

  /**
   * `rectify` inside the caller's transaction (`afterIssue` is theirs to call after the commit).
   * `workspaceBilling`: the seller's data when the workspace's own are not the ones printed (Diván's invoices).
   */
  async rectifyIn(
    tx: Tx,
    c: Caller,
    id: string,
    b: z.output<typeof rectifyInvoiceBody>,
    workspaceBilling?: BillingInfo,
  ): Promise<InvoiceRow> {
    const original = await this.invoices.accessible(c, id, 'update', tx, true);
    if (original.status !== 'issued') throw new AppError('invoice_not_issued');
    if (original.kind === 'rectifying')
      throw new AppError('invalid_argument', [
        { path: 'id', message: 'Una factura rectificativa no se rectifica: corrige la original otra vez.' },
      ]);
    const repo = invoicesRepository(tx);
    const originalLines = await repo.lines(original.id);
    const negated = originalLines.map((l) => ({
      description: `Anulación: ${l.description}`.slice(0, 300),
      itemKind: l.itemKind,
      unitPriceCents: -l.unitPrice,
      quantity: l.quantityHundredths / 100,
      vatRate: l.vatRate as 0 | 4 | 10 | 21,
      withholdingRate: l.withholdingRate as 0 | 7 | 15 | 19,
      exemption: l.exemption ?? null,
    }));
    const lines = b.lines.length ? b.lines : negated;
    const draft = await repo.insert({
      workspaceId: original.workspaceId,
      ownerId: original.ownerId,
      sellerType: original.sellerType,
      sellerKey: original.sellerKey,
      patientId: original.patientId,
      kind: 'rectifying',
      buyer: original.buyer,
      footer: original.footer,
      rectifiesId: original.id,
      rectificationMethod: b.method,
      rectificationReason: b.reason,
      createdBy: c.userId,
    });
    await this.drafts.writeLinesOf(
      tx,
      c,
      draft,
      lines.map((l) => ({ ...l, sessionId: null })),
    );
    const fresh = (await repo.find(original.workspaceId, draft.id, { therapist: { kind: 'all' }, workspace: true }))!;
    const row = await this.issueIn(tx, c, fresh, workspaceBilling);
    // Sessions of a cancelled invoice can be invoiced again.
    if (!b.lines.length) await this.d.sessions.setInvoiced(tx, original.workspaceId, sessionIdsOf(originalLines), false);
    return row;
  }

  /**
   * What issuing refuses, checked (no lines, a negative ordinary invoice, no buyer's name, a withholding
   * from a private buyer, a simplified invoice above 400,00 €, the seller's data incomplete); answers the
   * seller and the buyer. Manual, batch and automatic invoices all pass here, and a batch's preview asks it first.
   */
  async issuable(
    tx: Tx,
    draft: IssuableDraft,
    lines: readonly BuyerTaxLine[],
    workspaceBilling?: BillingInfo,
    cache?: ReadCache,
  ): Promise<{ seller: Seller; buyer: InvoiceParty }> {
    if (!lines.length) throw new AppError('invoice_empty');
    const kind = draft.kind ?? 'ordinary';
    if (kind === 'ordinary' && (draft.total ?? 0) < 0) throw new AppError('invoice_total_negative');
    const buyer = draft.buyer;
    if (!buyer?.fullName) throw new AppError('invoice_buyer_missing');
    checkBuyerTaxes(buyer, lines, kind === 'ordinary' || draft.rectificationMethod === 'substitution');
    return { seller: await this.sellerOf(tx, draft, workspaceBilling, cache), buyer };
  }

  /** The seller as printed (the therapist's billing data or the workspace's; a valid tax id is required) and their series prefix. */
  private async sellerOf(
    tx: Tx,
    inv: Pick<InvoiceRow, 'sellerType' | 'workspaceId' | 'ownerId'>,
    given: BillingInfo | undefined,
    cache?: ReadCache,
  ): Promise<Seller> {
    let party: InvoiceParty;
    let prefix: string;
    if (inv.sellerType === 'workspace') {
      const w =
        given ?? (await readOnce(cache, `workspace-billing:${inv.workspaceId}`, () => this.d.workspaces.billingInfo(inv.workspaceId, tx)));
      party = {
        kind: 'workspace',
        fullName: w.fullName ?? '',
        taxId: w.taxId ?? null,
        line1: w.line1 ?? null,
        line2: w.line2 ?? null,
        city: w.city ?? null,
        zipCode: w.zipCode ?? null,
        country: w.country ?? null,
      };
      prefix = w.seriesPrefix ?? '';
    } else {
      const t = await readOnce(cache, `billing:${inv.ownerId}`, () => this.d.billing.get(inv.ownerId, tx));
      party = {
        kind: 'therapist',
        fullName: t.fullName ?? '',
        taxId: t.taxId ?? null,
        line1: t.line1,
        line2: t.line2,
        city: t.city,
        zipCode: t.zipCode,
        country: t.country,
      };
      prefix = t.seriesPrefix;
    }
    if (!party.fullName || !party.taxId || !isValidSpanishTaxId(party.taxId)) throw new AppError('invoice_seller_incomplete');
    return { ...party, taxId: normalizeTaxId(party.taxId), prefix };
  }
}

/** The `invoice.issued` event of an issued invoice. */
export const issuedEvent = (row: InvoiceRow) => ({
  workspaceId: row.workspaceId,
  invoiceId: row.id,
  patientId: row.patientId,
  number: row.number!,
  totalCents: row.total,
});

/** F1 with an identified buyer, F2 (simplified) without a tax id; rectifying: R1, or R5 of a simplified one. */
function typeOf(inv: InvoiceRow, buyer: InvoiceParty): InvoiceType {
  if (inv.kind === 'rectifying') return buyer.taxId ? 'R1' : 'R5';
  return buyer.taxId ? 'F1' : 'F2';
}
