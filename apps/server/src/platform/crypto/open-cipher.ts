import { ConfigError, type Config } from '../config';
import type { Db } from '../db/database';
import { Cipher } from './cipher';
import { Keyring } from './keyring';
import { existsSync } from 'node:fs';
import { clinicalDataKeys } from './data-keys.tables';
import { defaultKeyFile, loadMasterKeys, MasterKeyError } from './master-key';

/**
 * The server's Cipher: master keys from CLINICAL_KEY or the key file (created on the first start,
 * with one line telling the operator to keep it), every data key loaded, those of `scopes` created.
 */
export async function openCipher(db: Db, config: Config, scopes: string[] = []): Promise<Cipher> {
  try {
    return await open(db, config, scopes);
  } catch (err) {
    // One clear line naming the variable, as for every configuration mistake.
    throw err instanceof MasterKeyError ? new ConfigError(err.message) : err;
  }
}

async function open(db: Db, config: Config, scopes: string[]) {
  const file = config.clinicalKey?.key ? undefined : (config.clinicalKey?.file ?? defaultKeyFile(config.dataDir));
  if (file && !existsSync(file)) {
    // A new key over encrypted data would read nothing: a restored or moved database needs its key back.
    const [stored] = await db.select({ m: clinicalDataKeys.masterKeyId }).from(clinicalDataKeys).limit(1);
    if (stored)
      throw new ConfigError(
        `Invalid environment variable CLINICAL_KEY_FILE: ${file} does not exist and this database is encrypted with master key ${stored.m}: put its key file back (or set CLINICAL_KEY).`,
      );
  }
  const keys = loadMasterKeys(config.clinicalKey, config.dataDir, { create: true });
  if (keys.created)
    console.log(
      `Clave maestra clínica creada en ${keys.file}: guárdala a salvo y aparte de las copias (sin ella no se leen los datos clínicos).`,
    );
  const cipher = new Cipher(new Keyring(db, keys), config.appSecret);
  await cipher.start(scopes);
  return cipher;
}
