import type { FeedbackTopic } from '@divan/core';
import { renderMail, type Mail } from '../../platform/mail/layout';

export type FeedbackAuthor = { name: string; email: string };

/** What the operator's inbox shows first: a comment, or a question about the Team plan (/plans, «Consultar precio»). */
export const feedbackSubject = (topic: FeedbackTopic, author: FeedbackAuthor): string =>
  topic === 'team_plan' ? 'Consulta del plan Team' : `Comentario de ${author.name} en Diván`;

/** The comment as the operator reads it; answering it writes to the therapist (Reply-To). */
export function feedbackMail(
  to: string,
  author: FeedbackAuthor,
  c: { message: string; page: string | null; userAgent: string | null; sentAt: Date; topic?: FeedbackTopic },
): Mail {
  const details = [
    `De: ${author.name} <${author.email}>`,
    c.page ? `Desde: ${c.page}` : null,
    c.userAgent ? `Navegador: ${c.userAgent}` : null,
    `Enviado: ${c.sentAt.toISOString()}`,
  ].filter((x): x is string => !!x);
  return {
    ...renderMail({
      to,
      subject: feedbackSubject(c.topic ?? 'comment', author),
      blocks: [
        ...c.message.split(/\n{2,}/).map((text) => ({ kind: 'p' as const, text })),
        ...details.map((text) => ({ kind: 'note' as const, text })),
      ],
      footer: 'Responde a este email para escribir directamente a quien lo envió.',
    }),
    replyTo: { name: author.name, address: author.email },
  };
}
