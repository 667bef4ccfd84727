import { and, eq } from 'drizzle-orm';
import { pipeline, Transform, type Readable } from 'node:stream';
import type { Cipher } from '../crypto/cipher';
import type { Db, DbOrTx } from '../db/database';
import { readDecrypted, writeEncrypted } from './encrypted-files';
import { files } from './files.tables';
import { PUBLIC_IMAGE_PURPOSES } from './public-image-store';
import type { Storage } from './storage';

export type PrivateFile = { id: string; workspaceId: string; purpose: string; contentType: string; size: number; createdAt: Date };

const PURPOSE = /^[a-z][a-z0-9-]{0,39}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const noop = () => {};

/**
 * Files that belong to a patient, an invoice or a contract: bytes encrypted with the workspace's
 * data key, rows keyed by workspace. There is no route: the module that owns a file checks the
 * caller's permission, then streams `read(...)`. An id of another workspace reads as nothing.
 */
export class PrivateFileStore {
  constructor(
    private readonly db: Db,
    private readonly storage: Storage,
    private readonly cipher: Cipher,
  ) {}

  /**
   * Stores the bytes, then writes the row (in `tx` when given: the caller's transaction). Returns
   * the new id. If the row cannot be written the bytes are removed; if `tx` rolls back later they
   * stay as an orphan (a stray file beats a row without bytes).
   */
  async save(
    input: { workspaceId: string; purpose: string; contentType: string; data: Buffer | Readable; createdBy?: string | null },
    tx: DbOrTx = this.db,
  ): Promise<string> {
    if (!UUID.test(input.workspaceId)) throw new Error(`not a workspace id: ${input.workspaceId}`);
    if (!PURPOSE.test(input.purpose) || (PUBLIC_IMAGE_PURPOSES as readonly string[]).includes(input.purpose))
      throw new Error(`not a private file purpose: ${input.purpose}`);
    const id = crypto.randomUUID();
    const storageKey = `private/${input.workspaceId}/${input.purpose}/${id.slice(0, 2)}/${id}`;
    let size = 0;
    const count = new Transform({ transform: (chunk: Buffer, _enc, cb) => ((size += chunk.length), cb(null, chunk)) });
    // An error of the source destroys the counter, which fails the write.
    const source = Buffer.isBuffer(input.data) ? ((size = input.data.length), input.data) : pipeline(input.data, count, noop);
    await writeEncrypted(this.storage, this.cipher, input.workspaceId, storageKey, source);
    try {
      await tx.insert(files).values({
        id,
        ownerUserId: input.createdBy ?? null,
        workspaceId: input.workspaceId,
        purpose: input.purpose,
        contentType: input.contentType,
        size,
        storageKey,
      });
    } catch (err) {
      await this.storage.delete(storageKey);
      throw err;
    }
    return id;
  }

  /** The file and its plain bytes as a stream; null when the id is not one of this workspace's files. */
  async read(workspaceId: string, id: string): Promise<(PrivateFile & { stream: Readable }) | null> {
    if (!UUID.test(id) || !UUID.test(workspaceId)) return null;
    const [row] = await this.db.select().from(files).where(ofWorkspace(workspaceId, id));
    if (!row) return null;
    const stream = await readDecrypted(this.storage, this.cipher, workspaceId, row.storageKey);
    return {
      id: row.id,
      workspaceId,
      purpose: row.purpose,
      contentType: row.contentType,
      size: row.size,
      createdAt: row.createdAt,
      stream,
    };
  }

  /** The row, then the bytes. False when the id is not one of this workspace's files. */
  async delete(workspaceId: string, id: string): Promise<boolean> {
    if (!UUID.test(id) || !UUID.test(workspaceId)) return false;
    const [row] = await this.db.delete(files).where(ofWorkspace(workspaceId, id)).returning();
    if (!row) return false;
    await this.storage.delete(row.storageKey);
    return true;
  }
}

const ofWorkspace = (workspaceId: string, id: string) => and(eq(files.id, id), eq(files.workspaceId, workspaceId));
