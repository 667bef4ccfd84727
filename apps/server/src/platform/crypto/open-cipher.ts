import { ConfigError, type Config } from '../config';
import type { Db } from '../db/database';
import { Cipher } from './cipher';
import { Keyring } from './keyring';
import { loadMasterKeys, MasterKeyError } from './master-key';

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
  const keys = loadMasterKeys(config.clinicalKey, config.dataDir, { create: true });
  if (keys.created)
    console.log(`Clave maestra clínica creada en ${keys.file}: guárdala a salvo y aparte de las copias (sin ella no se leen los datos clínicos).`);
  const cipher = new Cipher(new Keyring(db, keys), config.appSecret);
  await cipher.start(scopes);
  return cipher;
}
