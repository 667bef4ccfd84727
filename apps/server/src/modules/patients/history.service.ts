import type { HistoryEntry, HistoryEntryBody } from '@divan/core';
import type { Db } from '../../platform/db/database';
import type { Cipher } from '../../platform/crypto/cipher';
import { AppError } from '../../platform/errors';
import type { UsersService } from '../users/users.service';
import { historyRepository, type HistoryRow } from './history.repository';
import type { Caller, PatientsService } from './patients.service';
import { plainText, sanitizeRichText } from './rich-text';

type EntryInput = { title: string; date: string; body: string; private: boolean };

/**
 * The clinical history: entries encrypted at rest, private ones visible to their author only,
 * every edit kept as a revision, every read written to the access log.
 */
export class HistoryService {
  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
    private readonly users: UsersService,
    private readonly cipher: Cipher,
  ) {}

  async list(c: Caller, patientId: string): Promise<HistoryEntry[]> {
    const p = await this.patients.accessible(c, patientId, 'read', 'patient_histories');
    const rows = (await historyRepository(this.db).list(p.id)).filter((r) => !r.private || r.authorId === c.userId);
    await this.patients.logAccess(c, p, 'history.read');
    return this.present(p.workspaceId, rows);
  }

  async create(c: Caller, patientId: string, input: EntryInput): Promise<HistoryEntry> {
    const sealed = await this.seal(c.member.workspaceId, input.title, input.body);
    const row = await this.db.transaction(async (tx) => {
      const p = await this.patients.accessible(c, patientId, 'create', 'patient_histories', tx);
      const entry = await historyRepository(tx).insert({
        workspaceId: p.workspaceId,
        patientId: p.id,
        authorId: c.userId,
        entryDate: input.date,
        private: input.private,
        ...sealed,
      });
      await this.patients.touch(p.id, tx);
      return entry;
    });
    return (await this.present(row.workspaceId, [row]))[0]!;
  }

  async update(c: Caller, patientId: string, entryId: string, input: EntryInput): Promise<HistoryEntry> {
    const sealed = await this.seal(c.member.workspaceId, input.title, input.body);
    const row = await this.db.transaction(async (tx) => {
      const p = await this.patients.accessible(c, patientId, 'update', 'patient_histories', tx);
      const current = await this.visibleEntry(tx, p.id, entryId, c.userId);
      if (current.private && current.authorId !== c.userId) throw new AppError('history_not_found');
      await historyRepository(tx).addRevision({ entryId: current.id, editorId: c.userId, entryDate: current.entryDate, titleEnc: current.titleEnc, bodyEnc: current.bodyEnc });
      const next = await historyRepository(tx).update(current.id, { entryDate: input.date, private: current.authorId === c.userId ? input.private : current.private, ...sealed });
      await this.patients.touch(p.id, tx);
      return next;
    });
    return (await this.present(row.workspaceId, [row]))[0]!;
  }

  async delete(c: Caller, patientId: string, entryId: string) {
    await this.db.transaction(async (tx) => {
      const p = await this.patients.accessible(c, patientId, 'delete', 'patient_histories', tx);
      const current = await this.visibleEntry(tx, p.id, entryId, c.userId);
      await historyRepository(tx).delete(current.id);
      await this.patients.touch(p.id, tx);
    });
  }

  async revisions(c: Caller, patientId: string, entryId: string) {
    const p = await this.patients.accessible(c, patientId, 'read', 'patient_histories');
    const entry = await this.visibleEntry(this.db, p.id, entryId, c.userId);
    const rows = await historyRepository(this.db).revisions(entry.id);
    await this.patients.logAccess(c, p, 'history.revisions.read');
    const names = await this.names(rows.map((r) => r.editorId));
    return rows.map((r) => ({
      id: r.id,
      title: this.cipher.decryptText(p.workspaceId, r.titleEnc),
      body: this.cipher.decryptText(p.workspaceId, r.bodyEnc),
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
      // Loaded on first use: most server processes never import a .docx.
      const { default: mammoth } = await import('mammoth');
      html = (await mammoth.convertToHtml({ buffer: data })).value;
    } catch {
      throw new AppError('invalid_docx_file');
    }
    // The first heading becomes the title, so it is not repeated at the top of the body.
    const heading = html.match(/<h[1-3][^>]*>(.*?)<\/h[1-3]>/i);
    const headingText = heading ? await plainText(heading[1]!) : '';
    const title = headingText || filename.replace(/\.docx$/i, '') || 'Documento importado';
    const body = heading && headingText ? html.replace(heading[0], '') : html;
    return this.create(c, patientId, { title: title.slice(0, 200), date, body, private: false });
  }

  /** Sanitised and encrypted before the transaction opens: no CPU work while it holds locks. */
  private async seal(workspaceId: string, title: string, body: string) {
    return { titleEnc: this.cipher.encryptText(workspaceId, title), bodyEnc: this.cipher.encryptText(workspaceId, await sanitizeRichText(body)) };
  }

  /** Someone else's private entry does not exist for the caller. */
  private async visibleEntry(tx: Parameters<typeof historyRepository>[0], patientId: string, entryId: string, userId: string): Promise<HistoryRow> {
    const row = await historyRepository(tx).find(patientId, entryId);
    if (!row || (row.private && row.authorId !== userId)) throw new AppError('history_not_found');
    return row;
  }

  private async names(ids: string[]) {
    const users = await this.users.findManyByIds(ids);
    return new Map(users.map((u) => [u.id, [u.firstName, u.lastName].filter(Boolean).join(' ')]));
  }

  private async present(workspaceId: string, rows: HistoryRow[]): Promise<HistoryEntry[]> {
    const [names, revs] = await Promise.all([this.names(rows.map((r) => r.authorId)), historyRepository(this.db).revisionCounts(rows.map((r) => r.id))]);
    return rows.map((r) => ({
      id: r.id,
      title: this.cipher.decryptText(workspaceId, r.titleEnc),
      date: r.entryDate,
      body: this.cipher.decryptText(workspaceId, r.bodyEnc),
      private: r.private,
      author: { id: r.authorId, name: names.get(r.authorId) ?? 'Usuario eliminado' },
      revisions: revs.get(r.id) ?? 0,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    }));
  }
}

export type { HistoryEntryBody };
