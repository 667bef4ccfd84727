import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { StoredFileMissing, type Storage } from './storage';

const sha256 = async (stream: Readable) => {
  const h = createHash('sha256');
  let size = 0;
  for await (const c of stream) {
    h.update(c as Buffer);
    size += (c as Buffer).length;
  }
  return { size, hash: h.digest('hex') };
};

/** The target's size and hash of `key`, or undefined when it holds no such object. */
async function targetDigest(to: Storage, key: string) {
  try {
    await to.size(key);
    return await sha256(to.get(key));
  } catch (err) {
    if (err instanceof StoredFileMissing) return undefined;
    throw err;
  }
}

export class StorageMoveError extends Error {}

/**
 * `npm run storage:move -- --to s3|disk`: copies every object of `from` into `to`, each verified after it is
 * read back (size and SHA-256 equal to the source's). Resumable: an object already at the target with the
 * same size and hash is skipped, so a run cut at any point is finished by running it again. Nothing is
 * deleted from the source (the operator does, once the server runs on the target). `stopAfter`: tests cut a run.
 */
export async function moveStorage(
  from: Storage,
  to: Storage,
  o: { log?: (line: string) => void; stopAfter?: number } = {},
): Promise<{ copied: number; skipped: number; bytes: number }> {
  const log = o.log ?? console.log;
  const keys: { key: string; size: number }[] = [];
  for await (const f of from.list()) keys.push(f);
  let copied = 0;
  let skipped = 0;
  let bytes = 0;
  for (const [i, f] of keys.entries()) {
    if (o.stopAfter !== undefined && copied >= o.stopAfter) throw new StorageMoveError(`Interrumpido tras ${copied} objetos copiados.`);
    const source = await sha256(from.get(f.key));
    const there = await targetDigest(to, f.key);
    const present = !!there && there.size === source.size && there.hash === source.hash;
    if (present) skipped++;
    else {
      await to.put(f.key, from.get(f.key));
      const back = await targetDigest(to, f.key);
      if (!back || back.size !== source.size || back.hash !== source.hash)
        throw new StorageMoveError(`${f.key}: la copia en ${to.description} no coincide con el original (tamaño o SHA-256).`);
      copied++;
      bytes += source.size;
    }
    log(`[${i + 1}/${keys.length}] ${f.key} (${source.size} bytes) ${present ? 'ya estaba' : 'copiado y verificado'}`);
  }
  log(
    `${keys.length} objetos de ${from.description} en ${to.description}: ${copied} copiados y verificados, ${skipped} ya estaban. El origen no se ha borrado.`,
  );
  return { copied, skipped, bytes };
}
