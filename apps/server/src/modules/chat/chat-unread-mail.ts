import type { FastifyBaseLogger } from 'fastify';
import { CHAT_UNREAD_MAIL_AFTER_MINUTES } from '@divan/core';
import type { Db } from '../../platform/db/database';
import type { Jobs, QueueDefinition } from '../../platform/jobs/jobs';
import { renderMail, type Mail } from '../../platform/mail/layout';
import type { Mailer } from '../../platform/mail/mailer';
import type { PatientsService } from '../patients/patients.service';
import type { UsersService } from '../users/users.service';
import type { ChatAccess } from './chat-access';
import { chatRepository, type ChatSide } from './chat.repository';
import type { PatientLink } from './chat.types';

export const CHAT_UNREAD_QUEUE = 'chat.unread-mail';
const BATCH = 100;

type Deps = {
  db: Db;
  jobs: Jobs;
  mailer: Mailer;
  users: UsersService;
  patients: PatientsService;
  access: ChatAccess;
  link: () => PatientLink;
  publicUrl: string;
  clock?: () => Date;
  log: FastifyBaseLogger;
};

/**
 * A mail to the recipient side of a conversation whose peer's message has stayed unread for
 * CHAT_UNREAD_MAIL_AFTER_MINUTES: one per conversation per stretch of unread messages (keyed by the
 * side's read cursor: reading starts a new stretch), never one per message. The claim and the mail
 * are written in one transaction, so an at-least-once job never mails twice. The mail carries no text
 * of the conversation: it is clinical.
 */
export class ChatUnreadMail {
  constructor(private readonly d: Deps) {}

  /** Its queue, every minute (defined by the chat module's entry). */
  readonly queue: QueueDefinition<object> = {
    name: CHAT_UNREAD_QUEUE,
    work: async () => void (await this.sendDue()),
    retryLimit: 1,
    expireInSeconds: 300,
    pollingIntervalSeconds: 30,
    cron: { expression: '* * * * *', data: {} },
  };

  /** Mails every conversation due at `now`; returns how many mails it wrote. */
  async sendDue(now = this.d.clock?.() ?? new Date()): Promise<number> {
    const olderThan = new Date(now.getTime() - CHAT_UNREAD_MAIL_AFTER_MINUTES * 60_000);
    let sent = 0;
    for (const side of ['members', 'patient'] as ChatSide[]) {
      for (const c of await chatRepository(this.d.db).unreadSince(side, olderThan, BATCH)) {
        try {
          if (await this.mail(side, c.workspaceId, c.patientFileId, c.readId)) sent++;
        } catch (err) {
          this.d.log.error({ err, patientFileId: c.patientFileId }, 'chat: unread mail failed');
        }
      }
    }
    return sent;
  }

  private async mail(side: ChatSide, workspaceId: string, patientFileId: string, readId: string | null): Promise<boolean> {
    const key = `chat.unread:${patientFileId}:${side}:${readId ?? 'none'}`;
    // Recipients re-resolved now: who reads the file today, and whether the patient is still connected.
    const mails =
      side === 'members' ? await this.membersMails(workspaceId, patientFileId) : await this.patientMails(workspaceId, patientFileId);
    return this.d.db.transaction(async (tx) => {
      if (!(await this.d.jobs.claim(tx, key))) return false;
      for (const [i, mail] of mails.entries())
        await this.d.mailer.send(mail, { tx, purpose: 'chat_unread', workspaceId, key: `${key}:${i}` });
      return mails.length > 0;
    });
  }

  /** The assigned therapist when they read the chat; otherwise every member who does. */
  private async membersMails(workspaceId: string, patientFileId: string): Promise<Mail[]> {
    const [readers, profiles] = await Promise.all([
      this.d.access.readers(workspaceId, patientFileId),
      this.d.patients.profilesOf(workspaceId, [patientFileId]),
    ]);
    const p = profiles.get(patientFileId);
    if (!p) return [];
    const to = p.therapistId && readers.includes(p.therapistId) ? [p.therapistId] : readers;
    const users = await this.d.users.findManyByIds(to);
    const url = `${this.d.publicUrl}/chats/${patientFileId}`;
    return users.map((u) =>
      renderMail({
        to: u.email,
        subject: `Tienes mensajes sin leer de ${p.name}`,
        greeting: `Hola, ${u.firstName}:`,
        blocks: [
          {
            kind: 'p',
            text: `${p.name} te ha escrito por el chat de Diván y hay mensajes sin leer desde hace más de ${CHAT_UNREAD_MAIL_AFTER_MINUTES} minutos.`,
          },
          { kind: 'button', url, label: 'Abrir la conversación' },
        ],
        footer: 'Por tu privacidad y la de tu paciente, el contenido de los mensajes solo se ve en Diván.',
      }),
    );
  }

  /** The patient, at their file's email, while their account is connected to it. */
  private async patientMails(workspaceId: string, patientFileId: string): Promise<Mail[]> {
    if (!(await this.d.link().accountsOf(patientFileId)).length) return [];
    const contact = await this.d.patients.contactOf(workspaceId, patientFileId);
    const email = contact?.email?.trim();
    if (!contact || !email) return [];
    return [
      renderMail({
        to: email,
        subject: 'Tienes mensajes sin leer de tu terapeuta',
        greeting: `Hola, ${contact.firstName}:`,
        blocks: [
          {
            kind: 'p',
            text: `Tu terapeuta te ha escrito por el chat de Diván y tienes mensajes sin leer desde hace más de ${CHAT_UNREAD_MAIL_AFTER_MINUTES} minutos.`,
          },
          { kind: 'button', url: `${this.d.publicUrl}/p/`, label: 'Abrir Diván' },
        ],
        footer: 'Por tu privacidad, el contenido de los mensajes solo se ve en Diván.',
      }),
    ];
  }
}
