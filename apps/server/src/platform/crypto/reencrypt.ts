import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database';
import type { Storage } from '../storage/storage';
import { readAll, readDecrypted, writeEncrypted } from '../storage/encrypted-files';
import type { Cipher } from './cipher';

/**
 * Data written before envelope encryption (`v1:` text and header-less files, keyed by APP_SECRET)
 * re-encrypted with the workspaces' data keys, so APP_SECRET no longer guards any clinical record.
 * Run by `npm run admin -- rotate-clinical-key`; safe to repeat and to interrupt (each value is
 * replaced only if it is still the one that was read). The associated data of each column is the one
 * its service reads with.
 */
/** `select` gives id, scope, value and aad (the associated data the column's service reads with). */
type TextColumn = { name: string; select: SQL; update: (id: string, from: string, to: string) => SQL };

const OUTBOX_SCOPE = 'divan:mail-outbox';

const simple = (table: string, column: string, scope: string | null, aad: SQL): TextColumn => ({
  name: `${table}.${column}`,
  select: sql`select id::text as id, ${scope === null ? sql.raw('workspace_id::text') : sql`${scope}`} as scope, ${sql.raw(column)} as value, ${aad} as aad
    from ${sql.raw(table)} where ${sql.raw(column)} like 'v1:%' limit 200`,
  update: (id, from, to) =>
    sql`update ${sql.raw(table)} set ${sql.raw(column)} = ${to} where id = ${id}::uuid and ${sql.raw(column)} = ${from}`,
});

/** Revisions keep their entry's ciphertexts: the entry's patient and column. */
const revisions = (column: 'title_enc' | 'body_enc'): TextColumn => ({
  name: `history_revisions.${column}`,
  select: sql`select r.id::text as id, e.workspace_id::text as scope, r.${sql.raw(column)} as value, ${entryAad(sql.raw('e.patient_id'), column)} as aad
    from history_revisions r join history_entries e on e.id = r.entry_id where r.${sql.raw(column)} like 'v1:%' limit 200`,
  update: (id, from, to) =>
    sql`update history_revisions set ${sql.raw(column)} = ${to} where id = ${id}::uuid and ${sql.raw(column)} = ${from}`,
});

const entryAad = (patientId: SQL, column: 'title_enc' | 'body_enc') =>
  sql`'history_entries:' || ${patientId}::text || ${`:${column.replace('_enc', '')}`}`;

/** Every column that held `v1:` text before issue 9 (later columns were born `v2:`). */
export const LEGACY_TEXT_COLUMNS: TextColumn[] = [
  simple('history_entries', 'title_enc', null, entryAad(sql.raw('patient_id'), 'title_enc')),
  simple('history_entries', 'body_enc', null, entryAad(sql.raw('patient_id'), 'body_enc')),
  revisions('title_enc'),
  revisions('body_enc'),
  simple('mail_outbox', 'payload_enc', OUTBOX_SCOPE, sql`${'mail_outbox.payload'}::text`),
  simple('patient_imports', 'rows_enc', null, sql`${'patient_imports.rows'}::text`),
];

/** Encrypted files: documents and private files (public images are not encrypted). */
const FILE_ROWS = sql`select workspace_id::text as scope, storage_key as key from patient_documents
  union all select workspace_id::text, storage_key from files where workspace_id is not null and storage_key like 'private/%'`;

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
const V2_FILE = Buffer.from('DIVANv2\n');

export async function reencryptLegacy(db: Db, cipher: Cipher, storage: Storage): Promise<{ texts: number; files: number }> {
  let texts = 0;
  for (const col of LEGACY_TEXT_COLUMNS) {
    for (;;) {
      const rows = rowsOf<{ id: string; scope: string; value: string; aad: string }>(await db.execute(col.select));
      if (!rows.length) break;
      for (const r of rows) {
        const wc = await cipher.forWorkspace(r.scope);
        const next = wc.encryptText(wc.decryptText(r.value), r.aad);
        await db.execute(col.update(r.id, r.value, next));
        texts++;
      }
    }
  }
  let files = 0;
  for (const f of rowsOf<{ scope: string; key: string }>(await db.execute(FILE_ROWS))) {
    let head: Buffer;
    try {
      head = await readAll(storage.getRange(f.key, 0, V2_FILE.length - 1));
    } catch {
      continue; // already gone (an erased patient's file): nothing to protect
    }
    if (head.equals(V2_FILE)) continue;
    // Decrypted and encrypted again as a stream into a new file renamed over the old one.
    await writeEncrypted(storage, cipher, f.scope, f.key, await readDecrypted(storage, cipher, f.scope, f.key));
    files++;
  }
  return { texts, files };
}
