import { errorMessage } from '@divan/core';
import type { Db } from '../../../../platform/db/database';
import type { Jobs, QueueDefinition } from '../../../../platform/jobs/jobs';
import type { VerifactuAeatConfig } from '../../../../platform/config';
import { handle } from '../../../../platform/modules/define-module';
import type { VerifactuRecordRow } from '../../invoices.tables';
import { verifactuRecordsRepository } from '../verifactu-records.repository';
import { softwareOf, toRecord } from '../verifactu-export.service';
import type { CancellationRecord, SoftwareInfo, VerifactuRecord } from '../types';
import { AeatSoapSender, MAX_RECORDS_PER_SUBMISSION, type SubmissionBatch, type VerifactuSender } from './sender';
import type { RecordOutcome } from './soap';
import { submissionsRepository } from './submissions.repository';

export const VERIFACTU_SEND_QUEUE = 'verifactu.send';
export type SendJob = { issuerTaxId: string };

/** A submission in flight holds its issuer this long: more than a request may take (60 s), less than the job's expiry. */
const LEASE_MS = 90_000;
/** After a failed submission: 1 min, doubling, at most 6 h; the records wait, pending, and are never dropped. */
const BACKOFF_FIRST_S = 60;
const BACKOFF_MAX_S = 6 * 3600;
export const backoffSeconds = (failures: number) => Math.min(BACKOFF_FIRST_S * 2 ** Math.max(0, failures - 1), BACKOFF_MAX_S);

export type SendingDeps = {
  db: Db;
  jobs: Jobs;
  sender: VerifactuSender;
  /** The clock of flow control and backoff; tests move it. */
  now?: () => Date;
  /** What each submission says of the software (the configured producer); unset: the development values. */
  software?: SoftwareInfo;
};

export type WorkResult =
  | { outcome: 'nothing' }
  /** Another submission is in flight, or the AEAT's wait (or a backoff) is not over: a job is queued for `until`. */
  | { outcome: 'waiting'; until: Date | null }
  | { outcome: 'answered' | 'failed'; sent: number; notBefore: Date };

/**
 * Sending the VERI*FACTU records to the AEAT (issue 11), on when the server is configured for it.
 * After an invoice is issued a job is queued for its issuer; the job takes the issuer's lease, sends its
 * unsent records in chain order (≤ 1,000) and writes the outcome per record; then it waits the AEAT's
 * TiempoEsperaEnvio (or a growing backoff after a network error, an HTTP error or a SOAP fault) before
 * the next submission of that issuer, in a job queued for that moment. Everything is in the database:
 * a restart loses nothing, and a record sent twice (the answer lost) is recognised by the AEAT's
 * "duplicate" answer and counted as the acceptance it is.
 */
export class VerifactuSending {
  private readonly now: () => Date;

  constructor(private readonly d: SendingDeps) {
    this.now = d.now ?? (() => new Date());
  }

  /** The sending's queue (defined by the invoices module's entry, before the jobs start). */
  readonly queue: QueueDefinition<SendJob> = {
    name: VERIFACTU_SEND_QUEUE,
    work: async ({ issuerTaxId }) => void (await this.work(issuerTaxId)),
    expireInSeconds: 180,
    retryLimit: 5,
    retryDelaySeconds: 60,
    pollingIntervalSeconds: 5,
  };

  /** After an invoice is issued (its record committed): the sending of its issuer's records is queued. */
  async onIssued(invoiceId: string) {
    const issuerTaxId = await verifactuRecordsRepository(this.d.db).issuerOfInvoice(invoiceId);
    if (issuerTaxId) await this.d.jobs.send<SendJob>(VERIFACTU_SEND_QUEUE, { issuerTaxId }, { key: `invoice:${invoiceId}` });
  }

  /** The hourly sweep: a job for each issuer with something unsent (an event lost with its process). */
  async catchUp(): Promise<number> {
    const hour = this.now().toISOString().slice(0, 13);
    for (const issuerTaxId of await submissionsRepository(this.d.db).issuersWithUnsent(500)) {
      await this.d.jobs.send<SendJob>(VERIFACTU_SEND_QUEUE, { issuerTaxId }, { key: `catch-up:${issuerTaxId}:${hour}` });
    }
    return 0; // one pass an hour is enough: the jobs do the rest
  }

  /** The job: one submission of the issuer's unsent records, if its turn has come. */
  async work(issuerTaxId: string): Promise<WorkResult> {
    const { db } = this.d;
    const started = this.now();
    const lease = await submissionsRepository(db).leaseSender(issuerTaxId, started, LEASE_MS);
    if (!lease) {
      const s = await submissionsRepository(db).senderOf(issuerTaxId);
      const until = latest(s?.notBefore, s?.leaseUntil);
      if (await submissionsRepository(db).hasUnsent(issuerTaxId)) await this.followUp(issuerTaxId, until ?? started);
      return { outcome: 'waiting', until };
    }
    let records: VerifactuRecordRow[];
    try {
      records = await submissionsRepository(db).unsentRecords(issuerTaxId, lease.sentThrough, MAX_RECORDS_PER_SUBMISSION);
      if (records.length) await db.transaction((tx) => submissionsRepository(tx).markAttempt(records, started));
    } catch (err) {
      await submissionsRepository(db).releaseSender(issuerTaxId, { now: started });
      throw err;
    }
    if (!records.length) {
      await submissionsRepository(db).releaseSender(issuerTaxId, { now: started });
      return { outcome: 'nothing' };
    }
    let result;
    try {
      result = await this.d.sender.send(batchOf(records, this.d.software ?? softwareOf()));
    } catch (err) {
      // Our own fault (a record that no longer builds): wait as after a failure, and let the job's failure be logged.
      await this.fail(issuerTaxId, records, lease.failures + 1, { code: 'verifactu_malformed', description: (err as Error).message });
      throw err;
    }
    if (result.kind === 'failed') {
      const description = `${errorMessage(result.reason)} (${result.detail})`.slice(0, 1500);
      const notBefore = await this.fail(issuerTaxId, records, lease.failures + 1, { code: result.reason, description });
      return { outcome: 'failed', sent: records.length, notBefore };
    }
    const answered = this.now();
    const outcomes = result.outcomes.map(described);
    // Records the answer left out (a header refused, say) go again, after a backoff if it happens again and again.
    const failures = outcomes.some((o) => o.state === 'pending') ? lease.failures + 1 : 0;
    const waitSeconds = Math.max(result.waitSeconds, failures ? backoffSeconds(failures) : 0);
    const notBefore = new Date(answered.getTime() + waitSeconds * 1000);
    await db.transaction(async (tx) => {
      await submissionsRepository(tx).recordAnswer(records, outcomes, result.csv, answered, notBefore);
      await submissionsRepository(tx).releaseSender(issuerTaxId, {
        notBefore,
        failures,
        lastError: failures ? errorMessage('verifactu_no_answer') : null,
        now: answered,
      });
    });
    if (await submissionsRepository(db).hasUnsent(issuerTaxId)) await this.followUp(issuerTaxId, notBefore);
    return { outcome: 'answered', sent: records.length, notBefore };
  }

  /** A failed submission: its records stay pending; the issuer waits a backoff that grows with each failure in a row. */
  private async fail(
    issuerTaxId: string,
    records: VerifactuRecordRow[],
    failures: number,
    error: { code: string; description: string },
  ): Promise<Date> {
    const at = this.now();
    const notBefore = new Date(at.getTime() + backoffSeconds(failures) * 1000);
    await this.d.db.transaction(async (tx) => {
      await submissionsRepository(tx).recordFailure(records, error, at, notBefore);
      await submissionsRepository(tx).releaseSender(issuerTaxId, { notBefore, failures, lastError: error.description, now: at });
    });
    await this.followUp(issuerTaxId, notBefore);
    return notBefore;
  }

  /** One job per issuer and moment: many triggers while waiting become one submission when the wait is over. */
  private async followUp(issuerTaxId: string, at: Date) {
    await this.d.jobs.send<SendJob>(VERIFACTU_SEND_QUEUE, { issuerTaxId }, { key: `${issuerTaxId}@${at.toISOString()}`, startAfter: at });
  }
}

/**
 * Sending to the AEAT, when configured: the queue, the handler that queues a job after each issued
 * invoice, and the hourly catch-up, for the invoices module's entry to register. Unconfigured: nothing
 * to define, listen to or queue (`undefined`).
 */
export function wireVerifactuSending(d: {
  db: Db;
  jobs: Jobs;
  aeat?: VerifactuAeatConfig;
  sender?: VerifactuSender;
  clock?: () => Date;
  software?: SoftwareInfo;
}) {
  if (!d.aeat && !d.sender) return undefined;
  const sender = d.sender ?? new AeatSoapSender({ url: d.aeat!.url, tls: d.aeat!.tls });
  const sending = new VerifactuSending({ db: d.db, jobs: d.jobs, sender, now: d.clock, software: d.software });
  return {
    sending,
    jobs: [sending.queue],
    on: [handle('invoice.issued', 'once', (e) => sending.onIssued(e.invoiceId))],
    sweeps: { 'verifactu.catch-up': () => sending.catchUp() },
  };
}

const latest = (...dates: (Date | null | undefined)[]) => dates.reduce<Date | null>((a, b) => (b && (!a || b > a) ? b : a), null);

/** An answer that said nothing of a record: it stays pending, with our message. */
function described(o: RecordOutcome): RecordOutcome {
  return o.state === 'pending' ? { ...o, errorDescription: errorMessage(o.errorCode) } : o;
}

/** The stored records as one submission: the issuer's latest name in the header, the configured software. */
function batchOf(rows: VerifactuRecordRow[], software: SoftwareInfo): SubmissionBatch {
  const last = rows[rows.length - 1]!;
  return {
    issuer: { name: last.issuerName, taxId: last.issuerTaxId },
    software,
    records: rows.map(recordOf),
  };
}

function recordOf(r: VerifactuRecordRow): VerifactuRecord {
  if (r.recordType === 'registration') return toRecord(r);
  const d = r.detail as { previous: { issuerTaxId: string; number: string; issueDate: string } | null };
  const cancellation: CancellationRecord = {
    kind: 'cancellation',
    invoice: { issuerTaxId: r.issuerTaxId, number: r.invoiceNumber, issueDate: r.issueDate },
    previous: d.previous && r.previousFingerprint ? { ...d.previous, fingerprint: r.previousFingerprint } : null,
    generatedAt: r.generatedAt,
    fingerprint: r.fingerprint,
  };
  return cancellation;
}
