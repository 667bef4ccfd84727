import { eq } from 'drizzle-orm';
import type { Readable } from 'node:stream';
import type { Db } from '../db/database';
import { files } from './files.tables';
import type { Storage } from './storage';

export type StoredFile = { id: string; contentType: string; size: number };

/** File rows and their bytes, kept together: the row is written only once the bytes are stored. */
export class FileStore {
  constructor(
    private readonly db: Db,
    private readonly storage: Storage,
  ) {}

  async save(input: { ownerUserId: string; purpose: string; contentType: string; data: Buffer }): Promise<StoredFile> {
    const id = crypto.randomUUID();
    const storageKey = `${input.purpose}/${id.slice(0, 2)}/${id}`;
    await this.storage.put(storageKey, input.data);
    await this.db.insert(files).values({
      id,
      ownerUserId: input.ownerUserId,
      purpose: input.purpose,
      contentType: input.contentType,
      size: input.data.length,
      storageKey,
    });
    return { id, contentType: input.contentType, size: input.data.length };
  }

  async open(id: string): Promise<(StoredFile & { stream: Readable }) | null> {
    const [row] = await this.db.select().from(files).where(eq(files.id, id));
    if (!row) return null;
    return { id: row.id, contentType: row.contentType, size: row.size, stream: this.storage.get(row.storageKey) };
  }

  async delete(id: string) {
    const [row] = await this.db.delete(files).where(eq(files.id, id)).returning();
    if (row) await this.storage.delete(row.storageKey);
  }
}
