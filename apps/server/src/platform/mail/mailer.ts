import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Cipher } from '../crypto/cipher';
import type { Db, DbOrTx } from '../db/database';
import type { JobContext, Jobs } from '../jobs/jobs';
import type { Mail } from './layout';
import { mailOutbox, type MailStatus } from './mail.tables';

export type { Mail } from './layout';
export type OutboxMail = {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  createdAt: string;
  status: MailStatus;
  error: string | null;
};
export type MailState = { status: MailStatus; error: string | null; sentAt: string | null };

export type SendMailOptions = {
  /** Written in this transaction: a rolled-back action sends nothing. */
  tx?: DbOrTx;
  /** One mail per key: sending the same key again is a no-op. */
  key?: string;
  purpose: string;
  workspaceId?: string;
};

export type MailerOptions = {
  smtpUrl?: string;
  from: string;
  /** Relay retries (default 10, from 30 s doubling: about 8.5 hours in all), then the mail is failed. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /**
   * How long a finished mail keeps its body (codes, links) for /dev/mail; 0: dropped as soon as it is
   * sent, bounced or failed. Only the recipient, subject and status stay after that.
   */
  keepReadableMs?: number;
};

const QUEUE = 'mail.relay';
/** The outbox key of the pseudo-workspace whose data key encrypts mail at rest. */
export const OUTBOX_KEY = 'divan:mail-outbox';
/** Associated data of the payload column (the cipher binds the outbox scope too). */
export const PAYLOAD_AAD = 'mail_outbox.payload';
/** Sent, bounced and failed mail is deleted after this many days (its status was visible meanwhile). */
const KEEP_DAYS = 30;
const REDACTED = '[Contenido retirado tras el envío: contenía un código o un enlace personal.]';

/**
 * Mail that is never lost and never sent twice: `send` writes the mail, encrypted, into the outbox in
 * the caller's transaction and enqueues its relay job there too; the job sends it over SMTP (or, with
 * no SMTP_URL, leaves it at /dev/mail), retried with backoff while the server is down. A permanent
 * refusal (5xx) marks it bounced at once; the sender sees the status (`statusOf`).
 */
export class Mailer {
  /** Loaded with the first relay: nodemailer stays out of memory when SMTP_URL is unset. */
  private transport: Promise<Transporter> | undefined;
  private readonly retryLimit: number;

  constructor(
    private readonly db: Db,
    private readonly jobs: Jobs,
    private readonly cipher: Cipher,
    private readonly hashAddress: (email: string) => string,
    private readonly log: FastifyBaseLogger,
    private readonly opts: MailerOptions,
  ) {
    this.retryLimit = opts.retryLimit ?? 10;
    jobs.define<{ id: string }>({
      name: QUEUE,
      work: (data, job) => this.relay(data.id, job),
      retryLimit: this.retryLimit,
      retryDelaySeconds: opts.retryDelaySeconds ?? 30,
      retryBackoff: true,
      // Longer than any one SMTP conversation can last (see the transport's timeouts), so a send still
      // going is never taken for a dead one and sent again by another process.
      expireInSeconds: 120,
      pollingIntervalSeconds: 2,
    });
    jobs.sweep('mail.redact', () => this.redactOld());
    jobs.sweep('mail.purge', () => this.purge());
  }

  async send(mail: Mail, opts: SendMailOptions): Promise<{ id: string } | null> {
    const to = mail.to.trim().toLowerCase();
    const write = async (tx: DbOrTx) => {
      const [row] = await tx
        .insert(mailOutbox)
        .values({
          key: opts.key ?? null,
          purpose: opts.purpose,
          workspaceId: opts.workspaceId ?? null,
          toHash: this.hashAddress(to),
          payloadEnc: await this.cipher.encryptText(OUTBOX_KEY, JSON.stringify({ ...mail, to }), PAYLOAD_AAD),
        })
        .onConflictDoNothing()
        .returning({ id: mailOutbox.id });
      if (row) await this.jobs.send(QUEUE, { id: row.id }, { tx, key: row.id });
      return row ?? null;
    };
    return opts.tx ? write(opts.tx) : this.db.transaction(write);
  }

  /** The relay job: claim, send, mark. A retry after a crash mid-send resends with the same Message-ID. */
  private async relay(id: string, job: JobContext) {
    const [row] = await this.db
      .update(mailOutbox)
      .set({ status: 'sending', attempts: sql`${mailOutbox.attempts} + 1` })
      // Only this job relays this mail (its job id is the mail's). 'sending' on a retry: the last attempt died.
      .where(
        and(eq(mailOutbox.id, id), or(eq(mailOutbox.status, 'queued'), job.retryCount > 0 ? eq(mailOutbox.status, 'sending') : sql`false`)),
      )
      .returning();
    if (!row) return;
    const mail = JSON.parse(await this.cipher.decryptText(OUTBOX_KEY, row.payloadEnc, PAYLOAD_AAD)) as Mail;
    const smtp = this.smtp();
    if (!smtp) {
      // No code or link in the log: logs are kept (files, journald) where the outbox's rules do not reach.
      this.log.info(`[mail] to ${mail.to}: ${mail.subject} (read it at /dev/mail)`);
      await this.mark(id, 'sent', null, mail);
      return;
    }
    try {
      await (await smtp).sendMail({ from: this.opts.from, ...mail, messageId: `<${id}@divan.mail>` });
      await this.mark(id, 'sent', null, mail);
    } catch (err) {
      const e = err as Error & { responseCode?: number; response?: string };
      const answer = e.response ?? e.message;
      if (e.responseCode && e.responseCode >= 500) {
        // The server refused the address or the message for good: retrying would not help.
        this.log.warn({ mail: id, answer }, 'mail bounced');
        await this.mark(id, 'bounced', answer, mail);
        return;
      }
      const last = job.retryCount >= this.retryLimit;
      this.log.warn({ mail: id, answer, retry: job.retryCount }, last ? 'mail failed for good' : 'mail not sent yet: will retry');
      await this.mark(id, last ? 'failed' : 'queued', answer, mail);
      if (!last) throw err;
    }
  }

  private async mark(id: string, status: MailStatus, error: string | null, mail?: Mail) {
    const finished = status === 'sent' || status === 'bounced' || status === 'failed';
    const redact = finished && mail && !this.opts.keepReadableMs;
    await this.db
      .update(mailOutbox)
      .set({
        status,
        lastError: error,
        ...(status === 'sent' ? { sentAt: new Date() } : {}),
        ...(redact ? { payloadEnc: await this.redacted(mail), redactedAt: new Date() } : {}),
      })
      .where(eq(mailOutbox.id, id));
  }

  /** Recipient and subject only: what a support person may see of a mail that was sent. */
  private redacted(mail: Mail) {
    return this.cipher.encryptText(
      OUTBOX_KEY,
      JSON.stringify({ to: mail.to, subject: mail.subject, text: REDACTED, html: `<p>${REDACTED}</p>` }),
      PAYLOAD_AAD,
    );
  }

  /** Finished mail whose readable time is over, a batch at a time (the hourly sweep). */
  private async redactOld(): Promise<number> {
    const before = new Date(Date.now() - (this.opts.keepReadableMs ?? 0));
    const rows = await this.db
      .select({ id: mailOutbox.id, payloadEnc: mailOutbox.payloadEnc })
      .from(mailOutbox)
      .where(
        and(inArray(mailOutbox.status, ['sent', 'bounced', 'failed']), isNull(mailOutbox.redactedAt), lt(mailOutbox.createdAt, before)),
      )
      .limit(200);
    for (const r of rows) {
      const mail = JSON.parse(await this.cipher.decryptText(OUTBOX_KEY, r.payloadEnc, PAYLOAD_AAD)) as Mail;
      await this.db
        .update(mailOutbox)
        .set({ payloadEnc: await this.redacted(mail), redactedAt: new Date() })
        .where(eq(mailOutbox.id, r.id));
    }
    return rows.length;
  }

  /** How the mails of these keys went, for the screens of whoever sent them (an invitation's mail). */
  async statusOf(keys: string[]): Promise<Map<string, MailState>> {
    if (!keys.length) return new Map();
    const rows = await this.db
      .select({ key: mailOutbox.key, status: mailOutbox.status, error: mailOutbox.lastError, sentAt: mailOutbox.sentAt })
      .from(mailOutbox)
      .where(inArray(mailOutbox.key, keys));
    return new Map(rows.map((r) => [r.key!, { status: r.status, error: r.error, sentAt: r.sentAt?.toISOString() ?? null }]));
  }

  /** The outbox, decrypted: /dev/mail and tests. */
  async list(to: string | undefined, limit = 50): Promise<OutboxMail[]> {
    const rows = await this.db
      .select()
      .from(mailOutbox)
      .where(to ? eq(mailOutbox.toHash, this.hashAddress(to.trim().toLowerCase())) : undefined)
      .orderBy(desc(mailOutbox.createdAt))
      .limit(limit);
    const key = await this.cipher.forWorkspace(OUTBOX_KEY);
    return rows.map((r) => {
      const m = JSON.parse(key.decryptText(r.payloadEnc, PAYLOAD_AAD)) as Mail;
      return { id: r.id, ...m, createdAt: r.createdAt.toISOString(), status: r.status, error: r.lastError };
    });
  }

  /** Finished mail older than KEEP_DAYS, a batch at a time (the hourly sweep). */
  private async purge(): Promise<number> {
    const old = new Date(Date.now() - KEEP_DAYS * 86_400_000);
    const batch = this.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(inArray(mailOutbox.status, ['sent', 'bounced', 'failed']), lt(mailOutbox.createdAt, old)))
      .limit(500);
    const gone = await this.db.delete(mailOutbox).where(inArray(mailOutbox.id, batch)).returning({ id: mailOutbox.id });
    return gone.length;
  }

  private smtp(): Promise<Transporter> | undefined {
    const url = this.opts.smtpUrl;
    if (!url) return undefined;
    return (this.transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      // Bounded conversations (20 + 15 + 45 s at most): a send can never outlive its job's expiry (120 s).
      nodemailer.createTransport({ url, connectionTimeout: 20_000, greetingTimeout: 15_000, socketTimeout: 45_000 } as Parameters<
        typeof nodemailer.createTransport
      >[0]),
    ));
  }

  close() {
    void this.transport?.then((t) => t.close()).catch(() => {});
  }
}
