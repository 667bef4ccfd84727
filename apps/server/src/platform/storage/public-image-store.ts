import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Readable } from 'node:stream';
import type { Db } from '../db/database';
import { AppError } from '../errors';
import { imageIsWhole, type ImageInfo } from './image';
import { files } from './files.tables';
import type { Storage } from './storage';

/**
 * What may be public: a therapist's picture and logo, a workspace's logo. Nothing that belongs
 * to a patient, an invoice or a contract (those go to PrivateFileStore).
 */
export const PUBLIC_IMAGE_PURPOSES = ['picture', 'logo', 'workspace-logo', 'learning-icon'] as const;
export type PublicImagePurpose = (typeof PUBLIC_IMAGE_PURPOSES)[number];
const IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/webp'] satisfies ImageInfo['contentType'][];

const BROKEN_IMAGE = 'La imagen está dañada o incompleta. Vuelve a subirla.';

export type StoredImage = { id: string; contentType: string; size: number };

/**
 * Public images, served by unguessable id to anyone (`GET /api/v1/files/:id`, so `<img src>`
 * works without a token). Only the purposes above are saved, and only their rows are opened:
 * a private file's id gets nothing here. The row is written only once the bytes are stored.
 */
export class PublicImageStore {
  constructor(
    private readonly db: Db,
    private readonly storage: Storage,
  ) {}

  async save(input: {
    ownerUserId: string;
    purpose: PublicImagePurpose;
    contentType: ImageInfo['contentType'];
    data: Buffer;
  }): Promise<StoredImage> {
    // The types say it already; callers with data from elsewhere are checked at run time too.
    if (!(PUBLIC_IMAGE_PURPOSES as readonly string[]).includes(input.purpose))
      throw new Error(`not a public image purpose: ${input.purpose}`);
    if (!IMAGE_TYPES.includes(input.contentType)) throw new Error(`not a public image type: ${input.contentType}`);
    // A header is not a picture: a file cut short or damaged would be served broken to everyone.
    if (!imageIsWhole(input.data, input.contentType))
      throw new AppError('invalid_argument', [{ path: 'file', message: BROKEN_IMAGE }], BROKEN_IMAGE);
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

  async open(id: string): Promise<(StoredImage & { stream: Readable }) | null> {
    const [row] = await this.db.select().from(files).where(publicRow(id));
    if (!row) return null;
    return { id: row.id, contentType: row.contentType, size: row.size, stream: this.storage.get(row.storageKey) };
  }

  async delete(id: string) {
    const [row] = await this.db.delete(files).where(publicRow(id)).returning();
    if (row) await this.storage.delete(row.storageKey);
  }
}

const publicRow = (id: string) => and(eq(files.id, id), isNull(files.workspaceId), inArray(files.purpose, [...PUBLIC_IMAGE_PURPOSES]));
