import type { Action, Invoice, InvoiceListQuery, invoiceListResponse } from '@divan/core';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { Caller } from '../../platform/auth/caller';
import type { PatientsService } from '../patients/patients.service';
import type { UsersService } from '../users/users.service';
import { presentInvoice, presentSummary } from './invoice-presenter';
import { invoiceScope, mayAct } from './invoice-access';
import { invoicesRepository } from './invoices.repository';
import type { InvoiceLineRow, InvoiceRow, VerifactuRecordRow } from './invoices.tables';

export type InvoiceDeps = {
  db: Db;
  patients: PatientsService;
  users: UsersService;
  /** The AEAT's QR validation URL (production or its test site). */
  qrBase: string;
};

/**
 * Invoices as they are read: access to one, the list, the series, an invoice presented with its names.
 * Drafts (free to edit and delete) are in invoice-drafts.service.ts; issuing, payments and rectifying
 * invoices in issuing/.
 */
export class InvoicesService {
  constructor(private readonly d: InvoiceDeps) {}

  /** The invoice if the member may do `action` on it; 404 when they may not read it. */
  async accessible(
    c: Caller,
    id: string,
    action: Exclude<Action, 'manage'> = 'read',
    tx: DbOrTx = this.d.db,
    lock = false,
  ): Promise<InvoiceRow> {
    const row = await invoicesRepository(tx).find(c.member.workspaceId, id, invoiceScope(c), lock);
    if (!row) throw new AppError('invoice_not_found');
    if (!mayAct(c, action, row)) throw new AppError('access_denied');
    return row;
  }

  /** `accessible` with the invoice's lines, read in the same statement. */
  async accessibleWithLines(
    c: Caller,
    id: string,
    action: Exclude<Action, 'manage'>,
    tx: DbOrTx,
    lock = false,
  ): Promise<{ row: InvoiceRow; lines: InvoiceLineRow[] }> {
    const found = await invoicesRepository(tx).findWithLines(c.member.workspaceId, id, invoiceScope(c), lock);
    if (!found) throw new AppError('invoice_not_found');
    if (!mayAct(c, action, found.row)) throw new AppError('access_denied');
    return found;
  }

  async list(c: Caller, q: InvoiceListQuery): Promise<z.infer<typeof invoiceListResponse>> {
    const { rows, sum } = await invoicesRepository(this.d.db).list(c.member.workspaceId, invoiceScope(c), q);
    const names = await this.names(c.member.workspaceId, rows);
    return {
      items: rows.map((r) => presentSummary(r, names(r))),
      total: sum.count,
      totals: { subtotalCents: sum.subtotal, vatCents: sum.vat, withholdingCents: sum.withholding, totalCents: sum.total },
    };
  }

  async series(c: Caller): Promise<{ items: string[] }> {
    return { items: await invoicesRepository(this.d.db).series(c.member.workspaceId, invoiceScope(c)) };
  }

  async get(c: Caller, id: string): Promise<Invoice> {
    return this.present(c, await this.accessible(c, id, 'read'));
  }

  /** After the transaction: names come from other modules, which read outside it (PGlite has one connection). */
  async present(c: Caller, row: InvoiceRow): Promise<Invoice> {
    return this.presentIn(c.member.workspaceId, row);
  }

  /** The patient's own invoices (the companion: no member), issued or voided, latest first. */
  ofPatient(workspaceId: string, patientId: string): Promise<InvoiceRow[]> {
    return invoicesRepository(this.d.db).ofPatient(workspaceId, patientId);
  }

  /** One of the patient's own invoices; `invoice_not_found` for a draft or another patient's. */
  async ofPatientOne(workspaceId: string, patientId: string, id: string): Promise<InvoiceRow> {
    const row = await invoicesRepository(this.d.db).find(workspaceId, id, { therapist: { kind: 'all' }, workspace: true });
    if (!row || row.patientId !== patientId || row.status === 'draft') throw new AppError('invoice_not_found');
    return row;
  }

  /** The invoice as the therapist reads it, without a member (the patient's copy of its PDF). */
  async presentIn(workspaceId: string, row: InvoiceRow): Promise<Invoice> {
    const repo = invoicesRepository(this.d.db);
    const [lines, record, names, rectifiedBy] = await Promise.all([
      repo.lines(row.id),
      row.status === 'draft' ? undefined : repo.registration(row.id),
      this.names(workspaceId, [row]),
      row.status === 'draft' ? [] : repo.rectifiedBy(row.id),
    ]);
    return presentInvoice(
      row,
      lines,
      names(row),
      record,
      this.d.qrBase,
      rectifiedBy.map((r) => ({ ...r, method: r.method ?? 'difference' })),
    );
  }

  /** An invoice just issued, from what its transaction wrote (only the names are read; nothing rectifies it yet). */
  async presentIssued(c: Caller, row: InvoiceRow, lines: InvoiceLineRow[], record: VerifactuRecordRow): Promise<Invoice> {
    const names = await this.names(c.member.workspaceId, [row]);
    return presentInvoice(row, lines, names(row), record, this.d.qrBase, []);
  }

  private async names(workspaceId: string, rows: InvoiceRow[]) {
    const [patients, users] = await Promise.all([
      this.d.patients.namesOf(workspaceId, [...new Set(rows.map((r) => r.patientId).filter((x): x is string => !!x))]),
      this.d.users.namesByIds(rows.map((r) => r.ownerId)),
    ]);
    const rectified = rows.some((r) => r.rectifiesId)
      ? await Promise.all(
          rows
            .filter((r) => r.rectifiesId)
            .map((r) => invoicesRepository(this.d.db).find(workspaceId, r.rectifiesId!, { therapist: { kind: 'all' }, workspace: true })),
        )
      : [];
    const numbers = new Map(rectified.filter((r): r is InvoiceRow => !!r).map((r) => [r.id, r.number]));
    const therapists = new Map(users.map((u) => [u.id, [u.firstName, u.lastName].filter(Boolean).join(' ')]));
    return (r: InvoiceRow) => ({
      therapistName: therapists.get(r.ownerId) ?? 'Usuario eliminado',
      patientName: r.patientId ? (patients.get(r.patientId) ?? '') : null,
      rectifiedNumber: r.rectifiesId ? (numbers.get(r.rectifiesId) ?? null) : null,
    });
  }
}
