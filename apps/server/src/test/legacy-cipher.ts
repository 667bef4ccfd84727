import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** What the Cipher of before issue 9 wrote (HKDF of APP_SECRET): `v1:` text and header-less files. */
const legacyKey = (secret: string, ws: string) => Buffer.from(hkdfSync('sha256', secret, ws, 'divan-clinical-data-v1', 32));

export function legacyText(secret: string, ws: string, plain: string) {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', legacyKey(secret, ws), iv);
  const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return `v1:${Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64')}`;
}

export function legacyFile(secret: string, ws: string, plain: Buffer) {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', legacyKey(secret, ws), iv);
  return Buffer.concat([iv, c.update(plain), c.final(), c.getAuthTag()]);
}
