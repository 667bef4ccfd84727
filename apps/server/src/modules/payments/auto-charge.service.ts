import { errorMessage } from '@divan/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { Jobs, QueueDefinition } from '../../platform/jobs/jobs';
import type { Mailer } from '../../platform/mail/mailer';
import { invoicePaymentState } from '../invoices/invoice-payment-state';
import type { InvoiceRow } from '../invoices/invoice-payment-state';
import type { PatientsService } from '../patients/patients.service';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import type { InvoiceCharging } from './invoice-charging.service';
import { chargeFailedMail } from './payments.mails';

const QUEUE = 'payments.auto-charge';
type Job = { invoiceId: string };

export type AutoChargeDeps = {
  db: Db;
  jobs: Jobs;
  mailer: Mailer;
  charging: InvoiceCharging;
  workspaces: WorkspacesService;
  users: UsersService;
  patients: PatientsService;
  publicUrl: string;
  log: FastifyBaseLogger;
};

/**
 * The automatic charge (Advance): an invoice issued automatically for a patient with «cobros
 * automáticos» on is charged by a job, once (claimed); when the card fails, the therapist is told by mail.
 * A patient without a card or with the switch off is simply not charged.
 */
export class AutoCharges {
  constructor(private readonly d: AutoChargeDeps) {}

  /** The automatic charge's queue (defined by the payments module's entry). */
  readonly queue: QueueDefinition<Job> = {
    name: QUEUE,
    work: (j) => this.work(j.invoiceId),
    retryLimit: 3,
    retryDelaySeconds: 60,
    expireInSeconds: 120,
    pollingIntervalSeconds: 5,
  };

  /** After an automatic invoice is committed. */
  onAutoIssued = (row: InvoiceRow) => {
    if (row.sellerType !== 'therapist' || !row.patientId) return;
    void this.d.jobs
      .send<Job>(QUEUE, { invoiceId: row.id }, { key: row.id })
      .catch((err: unknown) => this.d.log.error({ err, invoiceId: row.id }, 'auto-charge not queued'));
  };

  async work(invoiceId: string): Promise<void> {
    const inv = await invoicePaymentState.find(this.d.db, invoiceId);
    if (!inv || inv.paymentStatus !== 'pending') return;
    if (!(await this.d.workspaces.featuresOf(inv.workspaceId)).canCreateInvoiceBatch) return;
    if (!(await this.d.jobs.claim(this.d.db, `payments.auto-charge:${invoiceId}`))) return;
    try {
      await this.d.charging.chargeRow(inv, null);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // No card, the switch off, the therapist not connected: nothing to do, nothing to tell.
      if (err.code === 'charge_no_payment_method' || err.code === 'charge_not_connected' || err.code === 'charge_not_chargeable') return;
      await this.tell(inv, err.message ?? errorMessage(err.code));
    }
  }

  private async tell(inv: InvoiceRow, why: string) {
    const therapist = await this.d.users.findById(inv.ownerId);
    if (!therapist?.email) return;
    const patientName = inv.patientId ? ((await this.d.patients.namesOf(inv.workspaceId, [inv.patientId])).get(inv.patientId) ?? '') : '';
    const url = `${this.d.publicUrl}/billing/editor/${inv.id}`;
    await this.d.mailer.send(
      chargeFailedMail(therapist.email, therapist.firstName, { number: inv.number ?? '', totalCents: inv.total, patientName }, why, url),
      { purpose: 'payments.charge-failed', workspaceId: inv.workspaceId, key: `charge-failed:${inv.id}` },
    );
  }
}
