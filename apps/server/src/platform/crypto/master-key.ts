import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * The clinical master key: it wraps every workspace's data key and nothing else. It comes from
 * `CLINICAL_KEY` (32 bytes, base64 or hex) or from a key file kept OUTSIDE `DATA_DIR`
 * (`CLINICAL_KEY_FILE`, default `<DATA_DIR>.clinical-key`, beside the data folder), so neither the
 * data folder nor a backup of it holds the key. During a rotation the previous key is kept beside
 * the current one (`CLINICAL_KEY_PREVIOUS`, or the key file's second line) until every data key is
 * wrapped by the new one.
 */
export type MasterKeys = {
  current: Buffer;
  previous: Buffer[];
  /** The key file in use (undefined when the key comes from CLINICAL_KEY). */
  file?: string;
  /** Set when this start created the key file. */
  created?: boolean;
};

export class MasterKeyError extends Error {}

const FILE_HEADER = [
  '# Diván: clave maestra de los datos clínicos. Guárdala a salvo y lejos de las copias de seguridad:',
  '# sin ella no se puede leer ningún dato clínico. Primera línea: la clave actual; la siguiente, la anterior (rotación).',
];

/** A short, stable name of a master key, stored beside each wrapped data key (never the key itself). */
export const masterKeyId = (key: Buffer) =>
  createHash('sha256').update('divan-clinical-master-key-id').update(key).digest('hex').slice(0, 16);

/** 32 bytes from base64, base64url or hex; undefined when the text is not one of those. */
export function parseKey(text: string): Buffer | undefined {
  const t = text.trim();
  if (/^[0-9a-f]{64}$/i.test(t)) return Buffer.from(t, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) {
    const b = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (b.length === 32) return b;
  }
  return undefined;
}

export const newMasterKey = () => randomBytes(32);
export const formatKey = (key: Buffer) => key.toString('base64');

export const defaultKeyFile = (dataDir: string) => `${resolve(dataDir)}.clinical-key`;

/**
 * Resolves the master keys from the environment; without CLINICAL_KEY, reads the key file, creating
 * it once (mode 600) when `create` is set (npm start) and it does not exist yet.
 */
export function loadMasterKeys(
  given: { key?: string; previous?: string; file?: string } | undefined,
  dataDir: string,
  opts: { create?: boolean } = {},
): MasterKeys {
  const previousEnv = given?.previous ? [keyOrThrow(given.previous, 'CLINICAL_KEY_PREVIOUS')] : [];
  if (given?.key) return { current: keyOrThrow(given.key, 'CLINICAL_KEY'), previous: previousEnv };
  const file = resolve(given?.file ?? defaultKeyFile(dataDir));
  if (file.startsWith(resolve(dataDir) + '/'))
    throw new MasterKeyError(
      `Invalid environment variable CLINICAL_KEY_FILE: must be outside DATA_DIR (${dataDir}), or every backup would carry the key`,
    );
  if (!existsSync(file)) {
    if (!opts.create)
      throw new MasterKeyError(
        `Invalid environment variable CLINICAL_KEY_FILE: ${file} does not exist (set CLINICAL_KEY or put the key file back)`,
      );
    writeKeyFile(file, newMasterKey(), [], 'wx');
    return { ...readKeyFile(file), created: true };
  }
  const keys = readKeyFile(file);
  return { ...keys, previous: [...keys.previous, ...previousEnv] };
}

export function readKeyFile(file: string): MasterKeys {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  if (!lines.length) throw new MasterKeyError(`Invalid environment variable CLINICAL_KEY_FILE: ${file} holds no key`);
  const [current, ...previous] = lines.map((l) => keyOrThrow(l, `CLINICAL_KEY_FILE (${file})`));
  return { current: current!, previous, file };
}

/** Writes the key file atomically (a temporary file renamed over it), readable by its owner only. */
export function writeKeyFile(file: string, current: Buffer, previous: Buffer[], flag: 'w' | 'wx' = 'w') {
  mkdirSync(dirname(file), { recursive: true });
  const text = [...FILE_HEADER, formatKey(current), ...previous.map(formatKey)].join('\n') + '\n';
  if (flag === 'wx') {
    writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
    return;
  }
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, file);
}

export const CLINICAL_KEY_FORMAT = 'must be 32 random bytes in base64 or hex (e.g. `openssl rand -base64 32`)';

function keyOrThrow(text: string, name: string): Buffer {
  const key = parseKey(text);
  if (!key) throw new MasterKeyError(`Invalid environment variable ${name}: ${CLINICAL_KEY_FORMAT}`);
  return key;
}
