import type { FastifyBaseLogger } from 'fastify';
import { CHAT_TYPING_EVENT, CHAT_TYPING_MIN_INTERVAL_MS, type ChatMessage } from '@divan/core';
import { isPatientSocketKey, patientSocketKey, type Realtime } from '../../platform/realtime/realtime';
import type { ChatAccess } from './chat-access';
import type { ChatSide } from './chat.repository';
import { NO_PATIENT_LINK, type PatientLink } from './chat.types';

const PATIENT_PREFIX = 'patient:';

/**
 * The chat's events over the websocket (spec §7): `chat-message {patientFileId, message}` to both
 * sides, `chat-notification-counter {patientFileId, count}` to the side whose count changed, the
 * counters at connection, and the typing notice relayed to the other side. Every event goes through
 * Realtime's broker, so it reaches sockets held by any server process.
 */
export class ChatRealtime {
  private readonly lastTyping = new Map<string, number>();

  constructor(
    private readonly realtime: Realtime,
    private readonly access: ChatAccess,
    private readonly log: FastifyBaseLogger,
    /** The patients' accounts module's link (chat.types.ts): who to tell on the patient side. */
    private readonly link: PatientLink = NO_PATIENT_LINK,
  ) {}

  /** Greets each socket with its side's counters, and relays typing; the counters are the service's. */
  start(
    counters: { ofUser: (userId: string) => Promise<unknown>; ofPatient: (patientAccountId: string) => Promise<unknown> },
    typingAccess: TypingAccess,
  ) {
    this.realtime.onAuthenticated(async (key, send) => {
      try {
        const patient = isPatientSocketKey(key);
        send('chat-notification-counters', {
          counters: await (patient ? counters.ofPatient(key.slice(PATIENT_PREFIX.length)) : counters.ofUser(key)),
        });
      } catch (err) {
        this.log.warn({ err }, 'chat: counters at connection failed');
      }
    });
    // `data` has passed core's schema (chatTypingData); a failure here is logged by Realtime at error level.
    this.realtime.onClientEvent(CHAT_TYPING_EVENT, (userId, { patientFileId }) => this.typing(userId, patientFileId, typingAccess));
  }

  async messageSent(workspaceId: string, patientFileId: string, message: ChatMessage, recipient: ChatSide, count: number) {
    const [members, patients] = await this.sides(workspaceId, patientFileId);
    await Promise.all([...members, ...patients].map((key) => this.realtime.toUser(key, 'chat-message', { patientFileId, message })));
    await this.counterTo(recipient === 'members' ? members : patients, patientFileId, count);
  }

  async counterChanged(workspaceId: string, patientFileId: string, side: ChatSide, count: number) {
    const [members, patients] = await this.sides(workspaceId, patientFileId);
    await this.counterTo(side === 'members' ? members : patients, patientFileId, count);
  }

  private counterTo(keys: string[], patientFileId: string, count: number) {
    return Promise.all(keys.map((key) => this.realtime.toUser(key, 'chat-notification-counter', { patientFileId, count })));
  }

  private async sides(workspaceId: string, patientFileId: string): Promise<[string[], string[]]> {
    const [members, accounts] = await Promise.all([this.access.readers(workspaceId, patientFileId), this.link.accountsOf(patientFileId)]);
    return [members, accounts.map(patientSocketKey)];
  }

  /** `chat-typing {patientFileId}` from a socket: rate limited per sender and file, relayed to the other side if the sender may write there. */
  private async typing(socketKey: string, patientFileId: string, typingAccess: TypingAccess) {
    const key = `${socketKey}:${patientFileId}`;
    const now = Date.now();
    if (now - (this.lastTyping.get(key) ?? 0) < CHAT_TYPING_MIN_INTERVAL_MS) return;
    if (this.lastTyping.size > 10_000) this.lastTyping.clear();
    this.lastTyping.set(key, now);
    const isPatient = isPatientSocketKey(socketKey);
    const workspaceId = isPatient
      ? (await this.link.fileOf(socketKey.slice(PATIENT_PREFIX.length), patientFileId))?.workspaceId
      : await typingAccess(socketKey, patientFileId);
    if (!workspaceId) return;
    const [members, patients] = await this.sides(workspaceId, patientFileId);
    const to = isPatient ? members : patients;
    await Promise.all(
      to.map((k) => this.realtime.toUser(k, 'chat-typing', { patientFileId, senderKind: isPatient ? 'patient' : 'member' })),
    );
  }
}

/** The workspace of a file whose chat the member writes to; null when they may not. */
export type TypingAccess = (userId: string, patientFileId: string) => Promise<string | null>;
