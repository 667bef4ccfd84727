import { HISTORY_DRAFT_TTL_DAYS, canOn, type HistoryDraft, type HistoryEntry, type HistoryEntryBody } from '@divan/core';
import type { Db } from '../../platform/db/database';
import type { Cipher } from '../../platform/crypto/cipher';
import { isUniqueViolation } from '../../platform/db/pg-errors';
import { AppError } from '../../platform/errors';
import { convertDocxToHtml, officeRefusal } from '../../platform/documents/office-files';
import type { AuditService } from '../audit/audit.service';
import type { UsersService } from '../users/users.service';
import { historyRepository, type DraftRow, type HistoryRow } from './history.repository';
import type { Caller } from '../../platform/auth/caller';
import type { PatientsService } from './patients.service';
import { plainText, sanitizeRichText } from './rich-text';

type EntryInput = { title: string; date: string; body: string; private: boolean };
type DraftInput = { title: string; date: string; body: string; private: boolean };
const DAY_MS = 86_400_000;
/** A draft's ciphertext is bound to its row's key: moved to another patient, author or entry, it does not decrypt. */
const draftAad = (patientId: string, authorId: string, entryId: string | null) =>
  `history_drafts:${patientId}:${authorId}:${entryId ?? 'new'}:content`;
/** An entry's title and body are bound to their patient and column (revisions keep the entry's ciphertexts, so the same). */
const entryAad = (patientId: string, column: 'title' | 'body') => `history_entries:${patientId}:${column}`;

/**
 * The clinical history: entries encrypted at rest, private ones visible to their author only,
 * every edit kept as a revision, every read written to the access log. A deleted entry is a tombstone
 * (kept with its revisions until the patient's retention ends) and an audit event. Unsaved entries are
 * drafts on the server, private to their author.
 */
export class HistoryService {
  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
    private readonly users: UsersService,
    private readonly cipher: Cipher,
    private readonly audit: AuditService,
  ) {}

  async list(c: Caller, patientId: string): Promise<HistoryEntry[]> {
    const p = await this.patients.accessible(c, patientId, 'read', 'patient_histories');
    const rows = (await historyRepository(this.db).list(p.id)).filter((r) => !r.private || r.authorId === c.userId);
    await this.patients.logAccess(c, p, 'history.read');
    return this.present(p.workspaceId, rows);
  }

  /**
   * A new entry. `link.sessionId` makes it that session's note: only the sessions module passes it,
   * having checked the session is this patient's; one live note per session (a unique index).
   */
  async create(c: Caller, patientId: string, input: EntryInput, link?: { sessionId: string }): Promise<HistoryEntry> {
    const sealed = await this.seal(c.member.workspaceId, patientId, input.title, input.body);
    const row = await this.db.transaction(async (tx) => {
      const p = await this.patients.accessible(c, patientId, 'create', 'patient_histories', tx);
      if (link && (await historyRepository(tx).notesOf([link.sessionId])).length) throw new AppError('session_note_exists');
      const entry = await historyRepository(tx)
        .insert({
          workspaceId: p.workspaceId,
          patientId: p.id,
          authorId: c.userId,
          entryDate: input.date,
          private: input.private,
          sessionId: link?.sessionId ?? null,
          ...sealed,
        })
        // Two notes written at once for one session: the second meets the unique index.
        .catch((err: unknown) => {
          if (link && isUniqueViolation(err)) throw new AppError('session_note_exists');
          throw err;
        });
      // Saved: the draft it was written from is no longer needed.
      await historyRepository(tx).deleteDraft(p.id, c.userId, null);
      await this.patients.touch(p.id, tx);
      return entry;
    });
    return (await this.present(row.workspaceId, [row]))[0]!;
  }

  async update(c: Caller, patientId: string, entryId: string, input: EntryInput): Promise<HistoryEntry> {
    const sealed = await this.seal(c.member.workspaceId, patientId, input.title, input.body);
    const row = await this.db.transaction(async (tx) => {
      const p = await this.patients.accessible(c, patientId, 'update', 'patient_histories', tx);
      const current = await this.visibleEntry(tx, p.id, entryId, c.userId);
      if (current.private && current.authorId !== c.userId) throw new AppError('history_not_found');
      await historyRepository(tx).addRevision({
        workspaceId: current.workspaceId,
        entryId: current.id,
        editorId: c.userId,
        entryDate: current.entryDate,
        titleEnc: current.titleEnc,
        bodyEnc: current.bodyEnc,
      });
      const next = await historyRepository(tx).update(current.id, {
        entryDate: input.date,
        private: current.authorId === c.userId ? input.private : current.private,
        ...sealed,
      });
      if (!next) throw new AppError('history_not_found');
      await historyRepository(tx).deleteDraft(p.id, c.userId, current.id);
      await this.patients.touch(p.id, tx);
      return next;
    });
    return (await this.present(row.workspaceId, [row]))[0]!;
  }

  /**
   * A tombstone, not a deletion: the clinical record is kept for the legal retention period (5 years),
   * so the entry and its revisions stay in the database, hidden, until the patient is erased. The
   * audit event is written in the same transaction.
   */
  async delete(c: Caller, patientId: string, entryId: string) {
    await this.db.transaction(async (tx) => {
      const p = await this.patients.accessible(c, patientId, 'delete', 'patient_histories', tx);
      const current = await this.visibleEntry(tx, p.id, entryId, c.userId);
      // Two deletes at once: the second finds the row already tombstoned once it gets the lock.
      if (!(await historyRepository(tx).markDeleted(current.id, c.userId))) throw new AppError('history_not_found');
      await historyRepository(tx).deleteDraftsOf(current.id);
      await this.audit.record(tx, {
        workspaceId: p.workspaceId,
        actorId: c.userId,
        action: 'history_entry.deleted',
        target: current.id,
        details: { patientId: p.id, patientName: [p.firstName, p.lastName].filter(Boolean).join(' '), entryDate: current.entryDate },
      });
      await this.patients.touch(p.id, tx);
    });
  }

  /**
   * The caller's unsaved entries for this patient: the new one and those of entries they may still edit.
   * Not written to the access log: a draft is the author's own text, not yet part of the record.
   */
  async drafts(c: Caller, patientId: string): Promise<HistoryDraft[]> {
    const p = await this.patients.accessible(c, patientId, 'read', 'patient_histories');
    const owner = { ownerId: p.assignedTherapistId };
    const [canCreate, canUpdate] = [
      canOn(c.member.ability, 'create', 'patient_histories', owner),
      canOn(c.member.ability, 'update', 'patient_histories', owner),
    ];
    const rows = (await historyRepository(this.db).drafts(p.id, c.userId)).filter((d) => (d.entryId ? canUpdate : canCreate));
    return Promise.all(rows.map((d) => this.openDraft(p.workspaceId, d)));
  }

  /** Autosave: the latest text of a new entry (`entryId` null) or of an edit, encrypted like entries. */
  async saveDraft(c: Caller, patientId: string, entryId: string | null, input: DraftInput): Promise<HistoryDraft> {
    const p = await this.patients.accessible(c, patientId, entryId ? 'update' : 'create', 'patient_histories');
    if (entryId) await this.visibleEntry(this.db, p.id, entryId, c.userId);
    const content = { title: input.title, date: input.date, body: await sanitizeRichText(input.body), private: input.private };
    const row = await historyRepository(this.db).upsertDraft({
      workspaceId: p.workspaceId,
      patientId: p.id,
      authorId: c.userId,
      entryId,
      contentEnc: await this.cipher.encryptText(p.workspaceId, JSON.stringify(content), draftAad(p.id, c.userId, entryId)),
    });
    return this.openDraft(p.workspaceId, row);
  }

  /** Discarded by its author. Discarding what is already gone is not an error. */
  async discardDraft(c: Caller, patientId: string, entryId: string | null) {
    const p = await this.patients.accessible(c, patientId, entryId ? 'update' : 'create', 'patient_histories');
    await historyRepository(this.db).deleteDraft(p.id, c.userId, entryId);
  }

  /**
   * Which of these sessions have their note, for the calendar and the patient's sessions: the entry's
   * id when the viewer may open it, null when it exists but is someone else's private entry.
   */
  async notesOfSessions(workspaceId: string, sessionIds: string[], viewerId: string): Promise<Map<string, string | null>> {
    const rows = sessionIds.length ? await historyRepository(this.db).notesOf(sessionIds) : [];
    return new Map(
      rows.filter((r) => r.workspaceId === workspaceId).map((r) => [r.sessionId!, r.private && r.authorId !== viewerId ? null : r.id]),
    );
  }

  /** The hourly sweep: drafts nobody touched for HISTORY_DRAFT_TTL_DAYS go, 500 a batch. */
  sweepDrafts = (now = new Date()) =>
    historyRepository(this.db).deleteStaleDrafts(new Date(now.getTime() - HISTORY_DRAFT_TTL_DAYS * DAY_MS), 500);

  async revisions(c: Caller, patientId: string, entryId: string) {
    const p = await this.patients.accessible(c, patientId, 'read', 'patient_histories');
    const entry = await this.visibleEntry(this.db, p.id, entryId, c.userId);
    const rows = await historyRepository(this.db).revisions(entry.id);
    await this.patients.logAccess(c, p, 'history.revisions.read');
    const [names, wc] = await Promise.all([this.names(rows.map((r) => r.editorId)), this.cipher.forWorkspace(p.workspaceId)]);
    return rows.map((r) => ({
      id: r.id,
      title: wc.decryptText(r.titleEnc, entryAad(p.id, 'title')),
      body: wc.decryptText(r.bodyEnc, entryAad(p.id, 'body')),
      date: r.entryDate,
      editor: { id: r.editorId, name: names.get(r.editorId) ?? 'Usuario eliminado' },
      createdAt: r.createdAt.toISOString(),
    }));
  }

  /** A Word document becomes one entry: its first heading (or the file name) is the title. */
  async importDocx(c: Caller, patientId: string, data: Buffer, filename: string, date: string): Promise<HistoryEntry> {
    await this.patients.accessible(c, patientId, 'create', 'patient_histories');
    if (data.subarray(0, 4).toString('latin1') !== 'PK\u0003\u0004') throw new AppError('invalid_docx_file');
    let html: string;
    try {
      // Size checked from the zip's directory, then unpacked and converted in a worker thread.
      html = await convertDocxToHtml(data);
    } catch (err) {
      throw officeRefusal(err, 'invalid_docx_file');
    }
    // The first heading becomes the title, so it is not repeated at the top of the body.
    const heading = html.match(/<h[1-3][^>]*>(.*?)<\/h[1-3]>/i);
    const headingText = heading ? await plainText(heading[1]!) : '';
    const title = headingText || filename.replace(/\.docx$/i, '') || 'Documento importado';
    const body = heading && headingText ? html.replace(heading[0], '') : html;
    return this.create(c, patientId, { title: title.slice(0, 200), date, body, private: false });
  }

  /** Sanitised and encrypted before the transaction opens: no CPU work while it holds locks. */
  private async seal(workspaceId: string, patientId: string, title: string, body: string) {
    const [wc, clean] = await Promise.all([this.cipher.forWorkspace(workspaceId), sanitizeRichText(body)]);
    return { titleEnc: wc.encryptText(title, entryAad(patientId, 'title')), bodyEnc: wc.encryptText(clean, entryAad(patientId, 'body')) };
  }

  private async openDraft(workspaceId: string, d: DraftRow): Promise<HistoryDraft> {
    const content = JSON.parse(
      await this.cipher.decryptText(workspaceId, d.contentEnc, draftAad(d.patientId, d.authorId, d.entryId)),
    ) as DraftInput;
    return {
      entryId: d.entryId,
      title: content.title,
      date: content.date,
      body: content.body,
      private: content.private,
      updatedAt: d.updatedAt.toISOString(),
    };
  }

  /** Someone else's private entry (or a deleted one) does not exist for the caller. */
  private async visibleEntry(
    tx: Parameters<typeof historyRepository>[0],
    patientId: string,
    entryId: string,
    userId: string,
  ): Promise<HistoryRow> {
    const row = await historyRepository(tx).find(patientId, entryId);
    if (!row || (row.private && row.authorId !== userId)) throw new AppError('history_not_found');
    return row;
  }

  private async names(ids: string[]) {
    const users = await this.users.findManyByIds(ids);
    return new Map(users.map((u) => [u.id, [u.firstName, u.lastName].filter(Boolean).join(' ')]));
  }

  private async present(workspaceId: string, rows: HistoryRow[]): Promise<HistoryEntry[]> {
    const [names, revs, wc] = await Promise.all([
      this.names(rows.map((r) => r.authorId)),
      historyRepository(this.db).revisionCounts(rows.map((r) => r.id)),
      this.cipher.forWorkspace(workspaceId),
    ]);
    return rows.map((r) => ({
      id: r.id,
      title: wc.decryptText(r.titleEnc, entryAad(r.patientId, 'title')),
      date: r.entryDate,
      body: wc.decryptText(r.bodyEnc, entryAad(r.patientId, 'body')),
      private: r.private,
      author: { id: r.authorId, name: names.get(r.authorId) ?? 'Usuario eliminado' },
      revisions: revs.get(r.id) ?? 0,
      sessionId: r.sessionId,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    }));
  }
}

export type { HistoryEntryBody };
