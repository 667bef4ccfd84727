import type { Hash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Feeds every file of the migrations folder, name and content in order, into `hash`: what names a migrated test template. */
export function hashMigrations(hash: Hash, migrationsFolder: string): Hash {
  for (const file of readdirSync(migrationsFolder, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(migrationsFolder, file);
    if (statSync(path).isFile()) hash.update(`${file}\n`).update(readFileSync(path));
  }
  return hash;
}
