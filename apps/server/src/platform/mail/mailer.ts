import { desc, eq } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import { mailOutbox } from './mail.tables';

export type Mail = { to: string; subject: string; text: string; html: string };
export type OutboxMail = { id: string; to: string; subject: string; text: string; html: string; createdAt: string };

/**
 * Every mail is written to the outbox; with SMTP_URL it is also sent over SMTP. Without SMTP a log
 * line shows the link or code, so a person on a fresh machine can confirm their account.
 */
export class Mailer {
  /** Loaded with the first mail: nodemailer stays out of memory when SMTP_URL is unset. */
  private transport: Promise<Transporter> | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly opts: { smtpUrl?: string; from: string },
  ) {
  }

  private smtp(): Promise<Transporter> | undefined {
    const url = this.opts.smtpUrl;
    if (!url) return undefined;
    return (this.transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(url)));
  }

  async send(mail: Mail): Promise<void> {
    const [row] = await this.db.insert(mailOutbox).values(mail).returning({ id: mailOutbox.id });
    const smtp = this.smtp();
    if (!smtp) {
      this.log.info(`[mail] to ${mail.to}: ${mail.subject} — ${firstLinkOrCode(mail.text)} (outbox: /dev/mail)`);
      return;
    }
    try {
      await (await smtp).sendMail({ from: this.opts.from, ...mail });
      await this.db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, row!.id));
    } catch (err) {
      const message = (err as Error).message;
      await this.db.update(mailOutbox).set({ error: message }).where(eq(mailOutbox.id, row!.id));
      this.log.error({ to: mail.to, err: message }, 'mail not sent');
      throw err;
    }
  }

  async list(to: string | undefined, limit = 50): Promise<OutboxMail[]> {
    const rows = await this.db
      .select()
      .from(mailOutbox)
      .where(to ? eq(mailOutbox.to, to.toLowerCase()) : undefined)
      .orderBy(desc(mailOutbox.createdAt))
      .limit(limit);
    return rows.map((r) => ({ id: r.id, to: r.to, subject: r.subject, text: r.text, html: r.html, createdAt: r.createdAt.toISOString() }));
  }

  close() {
    void this.transport?.then((t) => t.close()).catch(() => {});
  }
}

function firstLinkOrCode(text: string): string {
  return text.match(/https?:\/\/\S+/)?.[0] ?? text.match(/\b\d{6}\b/)?.[0] ?? '';
}
