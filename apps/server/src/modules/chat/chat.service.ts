import { randomUUID } from 'node:crypto';
import {
  decodeChatCursor,
  type ChatAttachment,
  type ChatCounters,
  type ChatListQuery,
  type ChatMessage,
  type ChatMessagesPage,
  type ChatMessagesQuery,
  type SendChatMessageBody,
} from '@divan/core';
import type { Cipher } from '../../platform/crypto/cipher';
import type { Db, Tx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { DocumentsService, Upload } from '../documents/documents.service';
import type { Caller } from '../../platform/auth/caller';
import type { PatientsService } from '../patients/patients.service';
import type { UsersService } from '../users/users.service';
import { chatScope, type ChatAccess } from './chat-access';
import { bodyAad, presentMessages } from './chat-presenter';
import type { ChatRealtime } from './chat-realtime';
import type { ChatOfficeHoursService } from './chat-office-hours';
import { chatRepository, peerOf, type ChatSide } from './chat.repository';
import type { ChatMessageRow } from './chat.tables';
import type { ChatActor, PatientLink } from './chat.types';

export type ChatDeps = {
  db: Db;
  cipher: Cipher;
  patients: PatientsService;
  users: UsersService;
  documents: DocumentsService;
  access: ChatAccess;
  realtime: ChatRealtime;
  officeHours: ChatOfficeHoursService;
  /** Claims a side effect's key in the transaction (platform/jobs): the automatic reply, once per stretch. */
  claim: (tx: Tx, key: string) => Promise<boolean>;
  /** The patients' accounts module's link (chat.types.ts): which files an account reaches. */
  link: PatientLink;
  clock?: () => Date;
};
type Sender = { kind: 'member' | 'patient'; id: string };
export type PatientCursorQuery = { before?: string; after?: string; limit?: number };

/**
 * The chat of a patient file (issue 15), for both sides. Members reach a file through the patient's
 * access (chat-access.ts); the patient through the accounts module's link (chat.types.ts), which the
 * patient routes pass as a `ChatActor`.
 */
export class ChatService {
  private readonly link: PatientLink;

  constructor(private readonly d: ChatDeps) {
    this.link = d.link;
  }

  // --- members --------------------------------------------------------------------------------

  async list(c: Caller, q: ChatListQuery) {
    const scope = chatScope(c.member, c.userId);
    const ws = c.member.workspaceId;
    if (scope.kind === 'none') return { items: [], total: 0, page: q.page, pageSize: q.pageSize };
    const ids = this.d.patients.idsInScope(ws, scope, this.d.db, {
      search: q.q,
      statuses: q.tab === 'inactive' ? ['paused', 'inactive'] : ['active'],
      live: true,
    });
    const repo = chatRepository(this.d.db);
    const { items, total } = await repo.list(ws, ids.getSQL(), q.tab, q.page, q.pageSize);
    const fileIds = items.map((i) => i.patientFileId);
    const [profiles, unread, last] = await Promise.all([
      this.d.patients.profilesOf(ws, fileIds),
      repo.unreadCounts('members', fileIds),
      repo.byIds(items.map((i) => i.lastMessageId)).then((rows) => presentMessages(this.d, ws, rows)),
    ]);
    const lastOf = new Map(last.map((m) => [m.patientFileId, m]));
    return {
      items: items.flatMap((i) => {
        const p = profiles.get(i.patientFileId);
        const m = lastOf.get(i.patientFileId);
        if (!p || !m) return [];
        return [
          {
            patientFileId: i.patientFileId,
            patientName: p.name,
            treatmentStatus: p.status,
            unread: unread.get(i.patientFileId) ?? 0,
            lastMessage: { senderKind: m.sender.kind, body: m.body, createdAt: m.createdAt },
          },
        ];
      }),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  async messages(c: Caller, patientFileId: string, q: ChatMessagesQuery): Promise<ChatMessagesPage> {
    const p = await this.d.access.file(c, patientFileId);
    return this.page(p.workspaceId, p.id, q);
  }

  async send(c: Caller, patientFileId: string, body: SendChatMessageBody): Promise<ChatMessage> {
    const p = await this.d.access.file(c, patientFileId, 'create');
    // A document sent to the patient is shared with them (so the companion opens it): that is the
    // documents' own switch, with its permission (patient_documents: update), before the message exists.
    if (body.attachmentDocumentId) {
      const doc = await this.d.documents.attachment(p.id, body.attachmentDocumentId);
      if (doc && !doc.shared) await this.d.documents.share(c, p.id, doc.id, true);
    }
    return this.write(p.workspaceId, p.id, { kind: 'member', id: c.userId }, body);
  }

  async markRead(c: Caller, patientFileId: string, upTo: string) {
    const p = await this.d.access.file(c, patientFileId);
    return this.read(p.workspaceId, p.id, 'members', upTo);
  }

  /** Unread messages per file the member reads in this workspace. */
  async counters(c: Caller): Promise<ChatCounters> {
    const scope = chatScope(c.member, c.userId);
    if (scope.kind === 'none') return {};
    return this.countersIn(c.member.workspaceId, scope);
  }

  /** The same over every workspace of a user (the websocket's counters at connection). */
  async countersOfUser(userId: string): Promise<ChatCounters> {
    const all: ChatCounters = {};
    for (const { workspaceId, scope } of await this.d.access.scopesOf(userId))
      Object.assign(all, await this.countersIn(workspaceId, scope));
    return all;
  }

  // --- the patient (routes in modules/patient-accounts) ----------------------------------------

  async listForPatient(actor: ChatActor, patientFileId: string, cursor: PatientCursorQuery = {}): Promise<ChatMessagesPage> {
    const f = await this.patientFile(actor, patientFileId);
    const q = { before: cursor.before, after: cursor.after, limit: Math.min(Math.max(cursor.limit ?? 30, 1), 100) };
    return this.page(f.workspaceId, patientFileId, q);
  }

  /** A file the patient attaches: kept as a document of their file (shared with them), to send next. */
  async attachAsPatient(actor: ChatActor, patientFileId: string, file: Upload): Promise<ChatAttachment> {
    const f = await this.patientFile(actor, patientFileId);
    const doc = await this.d.documents.uploadFromPatient(f.workspaceId, patientFileId, file);
    return { documentId: doc.id, name: doc.name, contentType: doc.contentType, size: doc.size };
  }

  async sendAsPatient(actor: ChatActor, patientFileId: string, body: SendChatMessageBody): Promise<ChatMessage> {
    const f = await this.patientFile(actor, patientFileId);
    return this.write(f.workspaceId, patientFileId, { kind: 'patient', id: f.accountId }, body);
  }

  async markReadAsPatient(actor: ChatActor, patientFileId: string, upTo: string) {
    const f = await this.patientFile(actor, patientFileId);
    return this.read(f.workspaceId, patientFileId, 'patient', upTo);
  }

  /** Unread messages per connected file for the patient, among `fileIds` (the route passes the account's files). */
  async patientCounters(patientAccountId: string, fileIds: string[]): Promise<ChatCounters> {
    const connected: string[] = [];
    for (const id of fileIds) if (await this.link.fileOf(patientAccountId, id)) connected.push(id);
    const counts = await chatRepository(this.d.db).unreadCounts('patient', connected);
    return Object.fromEntries([...counts].map(([id, count]) => [id, { count }]));
  }

  // --- both sides ---------------------------------------------------------------------------

  private async patientFile(actor: ChatActor, patientFileId: string) {
    if (actor.kind !== 'patient') throw new AppError('access_denied');
    const f = await this.link.fileOf(actor.patientAccountId, patientFileId);
    if (!f) throw new AppError('patient_not_found');
    return { ...f, accountId: actor.patientAccountId };
  }

  private async countersIn(workspaceId: string, scope: ReturnType<typeof chatScope>): Promise<ChatCounters> {
    const ids = this.d.patients.idsInScope(workspaceId, scope, this.d.db, { live: true });
    const counts = await chatRepository(this.d.db).unreadCounts('members', ids.getSQL());
    return Object.fromEntries([...counts].map(([id, count]) => [id, { count }]));
  }

  private async page(
    workspaceId: string,
    patientFileId: string,
    q: { before?: string; after?: string; limit: number },
  ): Promise<ChatMessagesPage> {
    const before = q.before ? decodeChatCursor(q.before) : null;
    const after = q.after ? decodeChatCursor(q.after) : null;
    if ((q.before && !before) || (q.after && !after)) throw new AppError('invalid_argument');
    const rows = await chatRepository(this.d.db).page(patientFileId, {
      before: before ?? undefined,
      after: after ?? undefined,
      limit: q.limit,
    });
    const items = await presentMessages(this.d, workspaceId, rows.slice(0, q.limit));
    return { items, next: rows.length > q.limit ? items[items.length - 1]!.cursor : null };
  }

  private async write(workspaceId: string, patientFileId: string, sender: Sender, body: SendChatMessageBody): Promise<ChatMessage> {
    if (body.attachmentDocumentId) {
      const doc = await this.d.documents.attachment(patientFileId, body.attachmentDocumentId);
      // The patient attaches only what the therapist shared with them; a member any document of the file.
      if (!doc || (sender.kind === 'patient' && !doc.shared)) throw new AppError('document_not_found');
    }
    const id = randomUUID();
    // Milliseconds, as the cursor carries them.
    const createdAt = new Date((this.d.clock?.() ?? new Date()).getTime());
    const bodyEnc = await this.d.cipher.encryptText(workspaceId, body.body.trim(), bodyAad(patientFileId, id));
    const row = {
      id,
      workspaceId,
      patientFileId,
      senderKind: sender.kind,
      senderId: sender.id,
      bodyEnc,
      attachmentDocumentId: body.attachmentDocumentId ?? null,
      createdAt,
      automatic: false,
    };
    await this.d.db.transaction(async (tx) => chatRepository(tx).insert(row));
    const message = await this.published(workspaceId, row);
    if (sender.kind === 'patient') await this.autoReply(workspaceId, patientFileId, createdAt);
    return message;
  }

  /** A new message to both sides' sockets, with the recipient side's new count. */
  private async published(workspaceId: string, row: ChatMessageRow): Promise<ChatMessage> {
    const [message] = await presentMessages(this.d, workspaceId, [row]);
    const recipient: ChatSide = row.senderKind === 'member' ? 'patient' : 'members';
    const count = (await chatRepository(this.d.db).unreadCounts(recipient, [row.patientFileId])).get(row.patientFileId) ?? 0;
    await this.d.realtime.messageSent(workspaceId, row.patientFileId, message!, recipient, count);
    return message!;
  }

  /**
   * Outside the assigned therapist's office hours, their automatic reply, once per stretch of
   * messages the members have not read (the claim is keyed by the members' read cursor).
   */
  private async autoReply(workspaceId: string, patientFileId: string, at: Date) {
    const therapistId = (await this.d.patients.profilesOf(workspaceId, [patientFileId])).get(patientFileId)?.therapistId;
    const reply = therapistId ? await this.d.officeHours.replyAt(therapistId, at) : null;
    if (!therapistId || !reply) return;
    const readId = await chatRepository(this.d.db).readId(patientFileId, 'members');
    const id = randomUUID();
    const bodyEnc = await this.d.cipher.encryptText(workspaceId, reply, bodyAad(patientFileId, id));
    const row = {
      id,
      workspaceId,
      patientFileId,
      senderKind: 'member' as const,
      senderId: therapistId,
      bodyEnc,
      attachmentDocumentId: null,
      createdAt: new Date(at.getTime() + 1),
      automatic: true,
    };
    const written = await this.d.db.transaction(async (tx) => {
      if (!(await this.d.claim(tx, `chat.autoreply:${patientFileId}:${readId ?? 'none'}`))) return false;
      await chatRepository(tx).insert(row);
      return true;
    });
    if (written) await this.published(workspaceId, row);
  }

  private async read(workspaceId: string, patientFileId: string, side: ChatSide, upTo: string) {
    const repo = chatRepository(this.d.db);
    const msg = await repo.find(patientFileId, upTo);
    if (!msg) throw new AppError('chat_message_not_found');
    if (msg.senderKind !== peerOf(side)) throw new AppError('chat_message_not_sent_by_peer');
    const moved = await repo.advanceRead(patientFileId, side, { at: msg.createdAt, id: msg.id });
    const count = (await repo.unreadCounts(side, [patientFileId])).get(patientFileId) ?? 0;
    if (moved) await this.d.realtime.counterChanged(workspaceId, patientFileId, side, count);
    return { patientFileId, count };
  }
}
