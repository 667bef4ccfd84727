import { encodeChatCursor, type ChatMessage } from '@divan/core';
import type { Cipher } from '../../platform/crypto/cipher';
import type { DocumentsService } from '../documents/documents.service';
import type { PatientsService } from '../patients/patients.service';
import type { UsersService } from '../users/users.service';
import type { ChatMessageRow } from './chat.tables';

/** The AAD of a message's body: moved to another row or file, it does not decrypt. */
export const bodyAad = (patientFileId: string, id: string) => `chat:${patientFileId}:${id}`;

type Deps = { cipher: Cipher; users: UsersService; patients: PatientsService; documents: DocumentsService };

/** Messages as the API returns them: the body decrypted, the sender and the attachment named. */
export async function presentMessages(d: Deps, workspaceId: string, rows: ChatMessageRow[]): Promise<ChatMessage[]> {
  if (!rows.length) return [];
  const memberIds = rows.filter((r) => r.senderKind === 'member').map((r) => r.senderId);
  const fileIds = [...new Set(rows.map((r) => r.patientFileId))];
  const [wc, users, profiles] = await Promise.all([
    d.cipher.forWorkspace(workspaceId),
    d.users.findManyByIds(memberIds),
    d.patients.profilesOf(workspaceId, fileIds),
  ]);
  const names = new Map(users.map((u) => [u.id, `${u.firstName} ${u.lastName ?? ''}`.trim()]));
  const attachments = new Map<string, string>();
  for (const r of rows)
    if (r.attachmentDocumentId && !attachments.has(r.attachmentDocumentId)) {
      const doc = await d.documents.attachment(r.patientFileId, r.attachmentDocumentId);
      if (doc) attachments.set(doc.id, doc.name);
    }
  return Promise.all(
    rows.map(async (r) => {
      const attachmentName = r.attachmentDocumentId ? attachments.get(r.attachmentDocumentId) : undefined;
      return {
        id: r.id,
        patientFileId: r.patientFileId,
        sender: {
          kind: r.senderKind,
          id: r.senderId,
          name: (r.senderKind === 'member' ? names.get(r.senderId) : profiles.get(r.patientFileId)?.name) ?? null,
        },
        body: await wc.decryptText(r.bodyEnc, bodyAad(r.patientFileId, r.id)),
        attachment: r.attachmentDocumentId && attachmentName ? { documentId: r.attachmentDocumentId, name: attachmentName } : null,
        automatic: r.automatic,
        createdAt: r.createdAt.toISOString(),
        cursor: encodeChatCursor({ at: r.createdAt, id: r.id }),
      };
    }),
  );
}
