import { FEEDBACK_USER_AGENT_MAX, type FeedbackReceipt, type FeedbackTopic, type SupportContact } from '@divan/core';
import type { Db } from '../../platform/db/database';
import type { Mailer } from '../../platform/mail/mailer';
import type { UsersService } from '../users/users.service';
import { feedbackMail } from './feedback.mail';
import { feedbackRepository } from './feedback.repository';

type Send = { message: string; page?: string | null; topic?: FeedbackTopic };

/**
 * How a question about the Team plan is kept: its own words after this line, so a look at the table tells
 * it from a comment without a column (and a migration) of its own.
 */
export const TEAM_PLAN_PREFIX = '[Consulta del plan Team]';
const storedMessage = (topic: FeedbackTopic, message: string) => (topic === 'team_plan' ? `${TEAM_PLAN_PREFIX}\n${message}` : message);

/**
 * Comments to Diván's team (Ajustes → Ayuda). Each is kept; with OPERATOR_EMAIL set it is also mailed
 * there, written to the outbox in the insert's transaction (both or neither), answerable to its author.
 */
export class FeedbackService {
  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly users: UsersService,
    private readonly operatorEmail: string | undefined,
  ) {}

  support(): SupportContact {
    return { email: this.operatorEmail ?? null };
  }

  async send(userId: string, b: Send, userAgent: string | undefined): Promise<FeedbackReceipt> {
    const me = await this.users.getProfile(userId);
    const author = { name: [me.firstName, me.lastName].filter(Boolean).join(' '), email: me.email };
    const page = b.page ?? null;
    const topic = b.topic ?? 'comment';
    const ua = userAgent?.slice(0, FEEDBACK_USER_AGENT_MAX) || null;
    const to = this.operatorEmail;
    const row = await this.db.transaction(async (tx) => {
      const row = await feedbackRepository(tx).insert({ userId, message: storedMessage(topic, b.message), page, userAgent: ua });
      if (to)
        await this.mailer.send(feedbackMail(to, author, { message: b.message, page, userAgent: ua, sentAt: row.createdAt, topic }), {
          tx,
          key: `feedback:${row.id}`,
          purpose: 'feedback',
        });
      return row;
    });
    return { id: row.id, createdAt: row.createdAt.toISOString() };
  }
}
