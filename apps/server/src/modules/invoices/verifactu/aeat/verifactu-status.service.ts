import type { VerifactuStatus } from '@divan/core';
import type { Db } from '../../../../platform/db/database';
import type { Caller } from '../../../../platform/auth/caller';
import type { InvoicesService } from '../../invoices.service';
import { submissionsRepository } from './submissions.repository';

/** What became of an invoice's records at the AEAT, for its screen (`sending`: whether this server sends them). */
export class VerifactuStatusService {
  constructor(private readonly d: { db: Db; invoices: InvoicesService; sending: boolean }) {}

  async of(c: Caller, invoiceId: string): Promise<VerifactuStatus> {
    const invoice = await this.d.invoices.accessible(c, invoiceId, 'read');
    const rows = await submissionsRepository(this.d.db).ofInvoice(c.member.workspaceId, invoice.id);
    return {
      sending: this.d.sending,
      records: rows.map(({ record, submission: s }) => ({
        kind: record.recordType,
        number: record.invoiceNumber,
        issueDate: record.issueDate,
        state: s?.state ?? 'pending',
        csv: s?.csv ?? null,
        errorCode: s?.errorCode ?? null,
        errorDescription: s?.errorDescription ?? null,
        attempts: s?.attempts ?? 0,
        lastAttemptAt: s?.lastAttemptAt?.toISOString() ?? null,
        nextAttemptAt: s?.nextAttemptAt?.toISOString() ?? null,
      })),
    };
  }
}
