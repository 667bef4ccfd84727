import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { Keyring } from './keyring';
import { loadMasterKeys, masterKeyId, newMasterKey, writeKeyFile } from './master-key';
import { reencryptLegacy } from './reencrypt';

/**
 * `npm run admin -- rotate-clinical-key`. With the key file: a new master key goes first in the file,
 * the old one stays on the next line (running servers re-read the file when they meet a data key
 * wrapped by the new one), and every data key is re-wrapped. With CLINICAL_KEY: the operator sets the
 * new key in CLINICAL_KEY and the old one in CLINICAL_KEY_PREVIOUS, then runs this. Ciphertexts are
 * not touched (their data keys stay), except data from before envelope encryption (`v1:`), which is
 * re-encrypted here, wherever the files are (the app's storage: DATA_DIR/files or the bucket). Safe to run
 * again after an interruption.
 */
export async function rotateClinicalKey(config: Config, app: FastifyInstance, log: (line: string) => void = console.log) {
  const keys = loadMasterKeys(config.clinicalKey, config.dataDir);
  const db = app.services.database.db;
  const cipher = app.services.cipher;
  // Finish any earlier rotation first: the previous key is about to be dropped from the key file.
  const earlier = await cipher.keyring.rewrapAll();
  if (keys.file) {
    const next = newMasterKey();
    writeKeyFile(keys.file, next, [keys.current]);
    const { rewrapped, total } = await new Keyring(db, { current: next, previous: [keys.current], file: keys.file }).rewrapAll();
    log(
      `New clinical master key ${masterKeyId(next)} written to ${keys.file} (the previous one, ${masterKeyId(keys.current)}, kept on its second line).`,
    );
    log(`${rewrapped} of ${total} workspace data keys re-wrapped.`);
  } else if (keys.previous.length) {
    log(
      `${earlier.rewrapped} of ${earlier.total} workspace data keys re-wrapped with CLINICAL_KEY (${masterKeyId(keys.current)}); CLINICAL_KEY_PREVIOUS can be removed once every server runs with the new CLINICAL_KEY.`,
    );
  } else {
    log(
      'CLINICAL_KEY is set: put a new key (openssl rand -base64 32) in CLINICAL_KEY and the current one in CLINICAL_KEY_PREVIOUS, then run this command again.',
    );
  }
  const legacy = await reencryptLegacy(db, cipher, app.services.storage);
  if (legacy.texts || legacy.files)
    log(`Re-encrypted with the data keys: ${legacy.texts} values and ${legacy.files} files written before envelope encryption.`);
}
