import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database';
import { readAll } from './encrypted-files';
import { installation } from './installation.tables';
import { StoredFileMissing, type Storage } from './storage';

/** The marker's key at the root of the stored files (DATA_DIR/files, or the bucket): backed up and restored with them. */
export const INSTALLATION_MARKER = 'installation-id';

export class DataDirMismatchError extends Error {}

/**
 * Every server process of one installation must store its files in one place: one shared DATA_DIR, or one
 * S3 bucket. A process given a storage of its own would store uploads the others cannot read (their
 * downloads found nothing): so the first process writes an installation id into the database and into
 * the storage (through the storage interface, on either driver), and every process checks at start-up
 * that the two agree.
 *
 * On PostgreSQL (several processes, one database) a missing or different marker stops start-up with one
 * line naming the storage ("DATA_DIR …" when `dataDir` is given, the files being on disk; else "S3_BUCKET …"). On PGlite the database lives inside
 * DATA_DIR itself, so the marker only follows it. The marker is written before the database row, and only by
 * a process that found no row: two processes starting at once on a new installation with one storage agree,
 * two with their own storages do not (on a bucket, where the store honours conditional writes: storage.ts).
 */
export async function checkInstallation(db: Db, o: { storage: Storage; dataDir?: string | undefined; shared: boolean }): Promise<string> {
  let id = await recorded(db);
  if (!id) {
    await db
      .insert(installation)
      .values({ id: o.shared ? await claimMarker(o.storage) : randomUUID() })
      .onConflictDoNothing();
    id = (await recorded(db))!;
  }
  const found = await readMarker(o.storage);
  if (found === id) return id;
  if (!o.shared) {
    await o.storage.put(INSTALLATION_MARKER, Buffer.from(id + '\n'));
    return id;
  }
  const disk = o.dataDir !== undefined;
  const where = disk ? `DATA_DIR ${o.dataDir}` : `S3_BUCKET ${o.storage.description}`;
  throw new DataDirMismatchError(
    `${where} is not the ${disk ? 'data directory' : 'storage'} of the other Diván processes on this database: ` +
      `${found ? `its files belong to installation ${found}` : `it has no ${disk ? 'files/' : ''}${INSTALLATION_MARKER}`}, the database to ${id}. ` +
      (disk
        ? 'Every process of one installation must use the same DATA_DIR (a shared volume) or the same S3_BUCKET; see README, "Running on PostgreSQL".'
        : 'Every process of one installation must use the same S3_BUCKET and S3_ENDPOINT; see README, "Running on PostgreSQL".'),
  );
}

async function recorded(db: Db): Promise<string | undefined> {
  const [row] = await db.select({ id: installation.id }).from(installation);
  return row?.id;
}

async function readMarker(storage: Storage): Promise<string | undefined> {
  try {
    return (await readAll(storage.get(INSTALLATION_MARKER))).toString('utf8').trim() || undefined;
  } catch (err) {
    if (err instanceof StoredFileMissing) return undefined;
    throw err;
  }
}

/** This storage's id: the one already there, or a new one created at once and whole (only if no other process made it first). */
async function claimMarker(storage: Storage): Promise<string> {
  const existing = await readMarker(storage);
  if (existing) return existing;
  const mine = randomUUID();
  if (await storage.putIfAbsent(INSTALLATION_MARKER, Buffer.from(mine + '\n'))) return mine;
  return (await readMarker(storage))!;
}
