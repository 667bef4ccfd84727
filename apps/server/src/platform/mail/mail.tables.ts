import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { MailStatus } from '@divan/core';

export type { MailStatus };

/**
 * Every mail, written in the transaction of the action that causes it and relayed by a job (the
 * outbox pattern). Address, subject and bodies are kept encrypted (login codes and reset links wait
 * here); `to_hash` finds a recipient's mail without decrypting everything. Without SMTP the outbox
 * is what /dev/mail shows.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** One mail per purpose (e.g. `invitation:<id>:1`, later `reminder:<session>:<n>`): a second send of the key is none. */
    key: text('key'),
    /** What the mail is for (signup, login, password, invitation…), readable for support and status screens. */
    purpose: text('purpose').notNull(),
    workspaceId: uuid('workspace_id'),
    toHash: text('to_hash').notNull(),
    /** AES-256-GCM of {to, subject, text, html}. */
    payloadEnc: text('payload_enc').notNull(),
    status: text('status').$type<MailStatus>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    /** The SMTP server's last answer on failure, e.g. "550 5.1.1 mailbox unavailable". */
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the body (codes, links) was dropped: at once once sent, or after a day where /dev/mail shows it. */
    redactedAt: timestamp('redacted_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('mail_outbox_to_idx').on(t.toHash, t.createdAt),
    uniqueIndex('mail_outbox_key').on(t.key),
    index('mail_outbox_status_idx').on(t.status, t.createdAt),
  ],
);
export type MailRow = typeof mailOutbox.$inferSelect;
