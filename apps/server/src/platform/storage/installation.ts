import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Db } from '../db/database';
import { installation } from './installation.tables';

/** The marker's name at the root of the stored files (DATA_DIR/files): backed up and restored with them. */
export const INSTALLATION_MARKER = 'installation-id';

export class DataDirMismatchError extends Error {}

/**
 * Until object storage exists, every server process of one installation keeps its files in one shared
 * DATA_DIR. A process given a DATA_DIR of its own would store uploads the others cannot read (their
 * downloads found nothing): so the first process writes an installation id into the database and into
 * DATA_DIR/files, and every process checks at start-up that the two agree.
 *
 * On PostgreSQL (several processes, one database) a missing or different marker stops start-up with one
 * line naming DATA_DIR. On PGlite the database lives inside DATA_DIR itself, so the marker only follows it.
 * The marker is written before the database row, and only by a process that found no row: two processes
 * starting at once on a new installation with one DATA_DIR agree, two with their own DATA_DIRs do not.
 */
export async function checkInstallation(db: Db, o: { filesRoot: string; dataDir: string; shared: boolean }): Promise<string> {
  const marker = join(o.filesRoot, INSTALLATION_MARKER);
  let id = await recorded(db);
  if (!id) {
    await db
      .insert(installation)
      .values({ id: o.shared ? claimMarker(marker) : randomUUID() })
      .onConflictDoNothing();
    id = (await recorded(db))!;
  }
  const found = readMarker(marker);
  if (found === id) return id;
  if (!o.shared) {
    writeMarker(marker, id);
    return id;
  }
  throw new DataDirMismatchError(
    `DATA_DIR ${o.dataDir} is not the data directory of the other Diván processes on this database: ` +
      `${found ? `its files belong to installation ${found}` : `it has no ${join('files', INSTALLATION_MARKER)}`}, the database to ${id}. ` +
      'Every process of one installation must use the same DATA_DIR (a shared volume); see README, "Running on PostgreSQL".',
  );
}

async function recorded(db: Db): Promise<string | undefined> {
  const [row] = await db.select({ id: installation.id }).from(installation);
  return row?.id;
}

function readMarker(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** This DATA_DIR's id: the one already there, or a new one created at once and whole (a hard link fails if another process made it first). */
function claimMarker(file: string): string {
  const existing = readMarker(file);
  if (existing) return existing;
  const mine = randomUUID();
  const tmp = `${file}.${mine}.tmp`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(tmp, mine + '\n', { mode: 0o600 });
  try {
    linkSync(tmp, file);
    return mine;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return readMarker(file)!;
  } finally {
    rmSync(tmp, { force: true });
  }
}

function writeMarker(file: string, id: string) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, id + '\n', { mode: 0o600 });
}
