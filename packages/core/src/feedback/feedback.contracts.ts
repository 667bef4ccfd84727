import { z } from 'zod';
import { optionalText, textField } from '../fields';
import { msg } from '../messages';

/** A comment to Diván's team from Ajustes → Ayuda: 10–5000 characters once trimmed. */
export const FEEDBACK_MESSAGE_MIN = 10;
export const FEEDBACK_MESSAGE_MAX = 5000;
/** Where the therapist was (a path of the app), and their browser, both cut to this. */
export const FEEDBACK_PAGE_MAX = 300;
export const FEEDBACK_USER_AGENT_MAX = 300;
/** Comments one user may send per hour. */
export const FEEDBACK_PER_HOUR = 5;

export const feedbackMessages = {
  tooShort: `Escribe al menos ${FEEDBACK_MESSAGE_MIN} caracteres`,
  tooMany: 'Has enviado varios comentarios en poco tiempo. Espera una hora y vuelve a intentarlo, o escríbenos por email.',
  sent: 'Gracias: hemos recibido tu comentario',
} as const;

/**
 * What a message to Diván's team is about: a comment from Ajustes → Ayuda, or a question about the Team
 * plan from /plans («Consultar precio»), which the operator's mail names in its subject.
 */
export const FEEDBACK_TOPICS = ['comment', 'team_plan'] as const;
export type FeedbackTopic = (typeof FEEDBACK_TOPICS)[number];

export const feedbackBody = z.object({
  message: textField('comentario', { error: msg.required('comentario') })
    .trim()
    .min(1, { error: msg.required('comentario') })
    .min(FEEDBACK_MESSAGE_MIN, { error: feedbackMessages.tooShort })
    .max(FEEDBACK_MESSAGE_MAX, { error: msg.maxLength(FEEDBACK_MESSAGE_MAX) }),
  /** The app's path the comment was written from ('/settings/help'); optional. */
  page: optionalText('página', FEEDBACK_PAGE_MAX),
  /** 'comment' unless said otherwise. */
  topic: z.enum(FEEDBACK_TOPICS, { error: msg.invalidEnum() }).default('comment'),
});
export type FeedbackBody = z.input<typeof feedbackBody>;

export const feedbackResponse = z.object({ id: z.uuid(), createdAt: z.string() });
export type FeedbackReceipt = z.infer<typeof feedbackResponse>;

/** Where a user writes to for help: the operator's address (OPERATOR_EMAIL), or null when none is configured. */
export const supportResponse = z.object({ email: z.string().nullable() });
export type SupportContact = z.infer<typeof supportResponse>;
