import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream';
import type { Readable } from 'node:stream';
import { DOCUMENT_MAX_BYTES, DOCUMENT_NAME_MAX, documentTags, type PatientDocument } from '@divan/core';
import type { Cipher } from '../../platform/crypto/cipher';
import type { Db, DbOrTx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import { readAll, readDecrypted, writeEncrypted } from '../../platform/storage/encrypted-files';
import type { StorageCleanup } from '../../platform/storage/storage-cleanup';
import type { Storage } from '../../platform/storage/storage';
import type { AuditService } from '../audit/audit.service';
import type { Caller } from '../../platform/auth/caller';
import type { ErasureStep, PatientsService } from '../patients/patients.service';
import type { UsersService } from '../users/users.service';
import { DocumentSniffer, tooLarge } from './content-sniffer';
import { documentsRepository, tagKey } from './documents.repository';
import type { DocumentRow } from './documents.tables';

export type Upload = { filename: string; stream: Readable; truncated: () => boolean; tags?: string };
export type Download = { name: string; contentType: string; size: number; stream: Readable };

const notFound = () => new AppError('document_not_found');
const noop = () => {};

/**
 * A patient's documents: streamed into storage encrypted with the workspace key, typed by their
 * bytes, tagged with the workspace's shared tags. Every list and download goes to the access log.
 */
export class DocumentsService {
  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
    private readonly users: UsersService,
    private readonly cipher: Cipher,
    private readonly storage: Storage,
    private readonly cleanup: StorageCleanup,
    private readonly audit: AuditService,
  ) {}

  async list(c: Caller, patientId: string): Promise<PatientDocument[]> {
    const p = await this.patients.accessible(c, patientId, 'read', 'patient_documents');
    const rows = await documentsRepository(this.db).list(p.id);
    await this.patients.logAccess(c, p, 'documents.read');
    return this.present(rows);
  }

  async upload(c: Caller, patientId: string, file: Upload): Promise<PatientDocument> {
    const p = await this.patients.accessible(c, patientId, 'create', 'patient_documents');
    return this.store(p, file, { by: c.userId, shared: false });
  }

  /**
   * A file the patient sends from their own account (a chat attachment; the caller proved the file is
   * connected to them): the same checks of type and size, no tags, no uploader among the members, and
   * shared with the patient (it is theirs).
   */
  async uploadFromPatient(workspaceId: string, patientId: string, file: Upload): Promise<PatientDocument> {
    return this.store({ id: patientId, workspaceId }, { ...file, tags: undefined }, { by: null, shared: true });
  }

  private async store(
    p: { id: string; workspaceId: string },
    file: Upload,
    o: { by: string | null; shared: boolean },
  ): Promise<PatientDocument> {
    const tags = parseTags(file.tags);
    const id = randomUUID();
    const storageKey = `documents/${p.workspaceId}/${id.slice(0, 2)}/${id}`;
    const sniffer = new DocumentSniffer(file.filename, DOCUMENT_MAX_BYTES);
    // Errors of any stage fail the write, which removes what was written.
    await writeEncrypted(this.storage, this.cipher, p.workspaceId, storageKey, pipeline(file.stream, sniffer, noop)).catch(
      (err: unknown) => {
        // The form's own size limit and the sniffer's count race each other (which one fails first depends
        // on timing): both mean the same thing here, the document's catalogue error with its limit.
        const code = (err as { code?: string }).code;
        throw code === 'FST_REQ_FILE_TOO_LARGE' || code === 'file_too_large' ? tooLarge() : err;
      },
    );
    try {
      if (file.truncated()) throw tooLarge();
      const row = await this.db.transaction(async (tx) => {
        const doc = await documentsRepository(tx).insert({
          id,
          workspaceId: p.workspaceId,
          patientId: p.id,
          name: nameOf(file.filename),
          contentType: sniffer.contentType!,
          size: sniffer.size,
          storageKey,
          uploadedBy: o.by,
          shared: o.shared,
        });
        await this.setTags(tx, p.workspaceId, doc.id, tags);
        await this.patients.touch(p.id, tx);
        return doc;
      });
      return (await this.present([row]))[0]!;
    } catch (err) {
      await this.storage.delete(storageKey);
      throw err;
    }
  }

  async update(c: Caller, patientId: string, documentId: string, body: { name?: string; tags?: string[] }): Promise<PatientDocument> {
    const row = await this.db.transaction(async (tx) => {
      const p = await this.patients.accessible(c, patientId, 'update', 'patient_documents', tx);
      const doc = await this.find(tx, p.id, documentId);
      if (body.tags) await this.setTags(tx, p.workspaceId, doc.id, body.tags);
      return documentsRepository(tx).update(doc.id, body.name !== undefined ? { name: body.name } : {});
    });
    return (await this.present([row]))[0]!;
  }

  async share(c: Caller, patientId: string, documentId: string, shared: boolean): Promise<PatientDocument> {
    const row = await this.db.transaction(async (tx) => {
      const p = await this.patients.accessible(c, patientId, 'update', 'patient_documents', tx);
      const doc = await this.find(tx, p.id, documentId);
      return documentsRepository(tx).update(doc.id, { shared });
    });
    return (await this.present([row]))[0]!;
  }

  async download(c: Caller, patientId: string, documentId: string): Promise<Download> {
    const p = await this.patients.accessible(c, patientId, 'read', 'patient_documents');
    const doc = await this.find(this.db, p.id, documentId);
    const stream = await readDecrypted(this.storage, this.cipher, p.workspaceId, doc.storageKey);
    await this.patients.logAccess(c, p, 'document.download');
    return { name: doc.name, contentType: doc.contentType, size: doc.size, stream };
  }

  /**
   * A tombstone, not a deletion. A patient's documents are part of the clinical record, which the law
   * keeps 5 years (Ley 41/2002, art. 17): the row and the encrypted bytes stay, hidden from every list,
   * count and download, until the patient's erasure (`eraseWithPatient`) removes both. The audit event
   * is written in the same transaction.
   */
  async delete(c: Caller, patientId: string, documentId: string) {
    await this.db.transaction(async (tx) => {
      const p = await this.patients.accessible(c, patientId, 'delete', 'patient_documents', tx);
      const doc = await this.find(tx, p.id, documentId);
      // Two deletes at once: the second finds the row already tombstoned once it gets the lock.
      if (!(await documentsRepository(tx).markDeleted(doc.id, c.userId))) throw notFound();
      await this.audit.record(tx, {
        workspaceId: p.workspaceId,
        actorId: c.userId,
        action: 'document.deleted',
        target: doc.id,
        details: { patientId: p.id, patientName: [p.firstName, p.lastName].filter(Boolean).join(' '), name: doc.name },
      });
      await this.patients.touch(p.id, tx);
    });
  }

  async tags(workspaceId: string, q: string | undefined) {
    return documentsRepository(this.db).listTags(workspaceId, q, 50);
  }

  /** The documents shared with the patient (their own account reads them; the caller proved the file). */
  async sharedWith(
    workspaceId: string,
    patientId: string,
  ): Promise<Pick<DocumentRow, 'id' | 'name' | 'contentType' | 'size' | 'createdAt'>[]> {
    const rows = await documentsRepository(this.db).list(patientId);
    return rows
      .filter((r) => r.shared && r.workspaceId === workspaceId)
      .map(({ id, name, contentType, size, createdAt }) => ({ id, name, contentType, size, createdAt }));
  }

  /** A document shared with the patient, downloaded from their own account; `document_not_found` for one not shared. */
  async downloadShared(workspaceId: string, patientId: string, documentId: string): Promise<Download> {
    const doc = await this.find(this.db, patientId, documentId);
    if (!doc.shared || doc.workspaceId !== workspaceId) throw notFound();
    const stream = await readDecrypted(this.storage, this.cipher, workspaceId, doc.storageKey);
    return { name: doc.name, contentType: doc.contentType, size: doc.size, stream };
  }

  count = (patientId: string) => documentsRepository(this.db).count(patientId);
  /** A live document of the patient (a chat attachment): its name and whether it is shared with the patient; null otherwise. */
  attachment = async (patientId: string, documentId: string, tx: DbOrTx = this.db) => {
    const d = await documentsRepository(tx).find(patientId, documentId);
    return d ? { id: d.id, name: d.name, shared: d.shared } : null;
  };

  /**
   * A document the system made (a sealed consent), added to the patient's in the caller's transaction,
   * with its tags. The bytes are written first: a transaction that then rolls back leaves an orphan
   * file, never a row without bytes. The workspace's key must be loaded before (`cipher.forWorkspace`)
   * on PGlite, whose one connection the transaction holds.
   */
  async addGenerated(
    tx: DbOrTx,
    doc: { workspaceId: string; patientId: string; name: string; contentType: string; bytes: Buffer; tags: string[]; by: string | null },
  ): Promise<string> {
    const id = randomUUID();
    const storageKey = `documents/${doc.workspaceId}/${id.slice(0, 2)}/${id}`;
    await writeEncrypted(this.storage, this.cipher, doc.workspaceId, storageKey, doc.bytes);
    const { workspaceId, patientId, name, contentType, by } = doc;
    await documentsRepository(tx).insert({
      id,
      workspaceId,
      patientId,
      name,
      contentType,
      size: doc.bytes.length,
      storageKey,
      uploadedBy: by,
    });
    await this.setTags(tx, workspaceId, id, doc.tags);
    await this.patients.touch(patientId, tx);
    return id;
  }

  /** The bytes of one of a patient's documents, for the system that made it; null once deleted or erased. */
  async readGenerated(workspaceId: string, patientId: string, documentId: string): Promise<Buffer | null> {
    const doc = await documentsRepository(this.db).find(patientId, documentId);
    if (!doc || doc.workspaceId !== workspaceId) return null;
    return readAll(await readDecrypted(this.storage, this.cipher, workspaceId, doc.storageKey));
  }

  /**
   * A step of erasing a patient (past retention), inside its transaction: the rows go with the patient
   * or not at all (the foreign key's cascade is only the backstop), deleted ones (tombstones) included, and
   * the bytes once it commits. Not an after-commit handler: the storage keys are only known before the rows are gone.
   */
  eraseWithPatient: ErasureStep = async (tx, patient) => {
    const keys = await documentsRepository(tx).deleteForPatient(patient.id);
    // A job in the erasure's transaction: the files go once it commits, even if this process dies right after.
    await this.cleanup.deleteAfterCommit(tx, keys);
  };

  private async find(tx: DbOrTx, patientId: string, documentId: string): Promise<DocumentRow> {
    const doc = await documentsRepository(tx).find(patientId, documentId);
    if (!doc) throw notFound();
    return doc;
  }

  private async setTags(tx: DbOrTx, workspaceId: string, documentId: string, names: string[]) {
    // The first spelling of a name wins within one request.
    const unique = new Map<string, string>();
    for (const n of names) if (!unique.has(tagKey(n))) unique.set(tagKey(n), n);
    const tags = await documentsRepository(tx).ensureTags(workspaceId, [...unique.values()]);
    await documentsRepository(tx).setTags(
      workspaceId,
      documentId,
      tags.map((t) => t.id),
    );
  }

  private async present(rows: DocumentRow[]): Promise<PatientDocument[]> {
    const [tags, users] = await Promise.all([
      documentsRepository(this.db).tagsOf(rows.map((r) => r.id)),
      this.users.findManyByIds(rows.map((r) => r.uploadedBy).filter((x): x is string => !!x)),
    ]);
    const names = new Map(users.map((u) => [u.id, [u.firstName, u.lastName].filter(Boolean).join(' ')]));
    return rows.map((r) => ({
      id: r.id,
      patientId: r.patientId,
      name: r.name,
      contentType: r.contentType,
      size: r.size,
      tags: tags.get(r.id) ?? [],
      shared: r.shared,
      uploadedBy: r.uploadedBy ? { id: r.uploadedBy, name: names.get(r.uploadedBy) ?? 'Usuario eliminado' } : null,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    }));
  }
}

/** The file name as shown: no folders, no control characters, bounded. */
function nameOf(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const clean = base
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, DOCUMENT_NAME_MAX);
  return clean || 'documento';
}

/** Tags sent with an upload: a JSON array or a comma-separated list. */
function parseTags(raw: string | undefined): string[] {
  if (!raw?.trim()) return [];
  let list: unknown;
  try {
    list = raw.trim().startsWith('[') ? JSON.parse(raw) : raw.split(',').filter((s) => s.trim());
  } catch {
    list = null;
  }
  const parsed = documentTags.safeParse(list);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? 'Etiquetas inválidas';
    throw new AppError('invalid_argument', [{ path: 'tags', message }], message);
  }
  return parsed.data;
}
