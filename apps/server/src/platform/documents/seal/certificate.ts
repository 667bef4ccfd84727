import { createPrivateKey, generateKeyPairSync, randomBytes, X509Certificate, type KeyObject } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type Forge from 'node-forge';

/** node-forge (~50 ms to load) only once a certificate is read or made, not with every config load. */
let loaded: typeof Forge | undefined;
const forge = (): typeof Forge => (loaded ??= createRequire(import.meta.url)('node-forge') as typeof Forge);

/** The key that seals, its certificate (DER) and any other certificates of the file (a chain). */
export type SealKey = { key: KeyObject; certificate: Buffer; chain: Buffer[]; x509: X509Certificate };

export type SealCertificateProblem = 'passphrase' | 'format' | 'no_key' | 'unsupported_key';

export class SealCertificateError extends Error {
  constructor(
    readonly reason: SealCertificateProblem,
    message: string,
  ) {
    super(message);
    this.name = 'SealCertificateError';
  }
}

/** Where the installation's own seal is kept inside DATA_DIR: the PKCS#12 file and, beside it, its random passphrase. */
export const SEAL_FILES = { p12: 'seal.p12', passphrase: 'seal-passphrase' } as const;
export const SEAL_KEY_BITS = 3072;
export const SEAL_YEARS = 10;

/**
 * Opens a PKCS#12 (.p12/.pfx) file: its private key (RSA or EC) and the certificate that goes with
 * it. A wrong passphrase, a file that is not PKCS#12, or one without a matching key and certificate
 * throw a SealCertificateError whose message can follow a variable's name.
 */
export function readP12(p12: Buffer, passphrase = ''): SealKey {
  const f = forge();
  let pfx: Forge.pkcs12.Pkcs12Pfx;
  try {
    pfx = f.pkcs12.pkcs12FromAsn1(f.asn1.fromDer(f.util.createBuffer(p12.toString('binary'))), false, passphrase);
  } catch (err) {
    const message = (err as Error).message;
    if (/password|MAC could not be verified/i.test(message))
      throw new SealCertificateError('passphrase', 'the passphrase does not open the PKCS#12 file');
    throw new SealCertificateError('format', `not a readable PKCS#12 (.p12/.pfx) file (${message})`);
  }
  const keys = [
    ...(pfx.getBags({ bagType: f.pki.oids.pkcs8ShroudedKeyBag })[f.pki.oids.pkcs8ShroudedKeyBag!] ?? []),
    ...(pfx.getBags({ bagType: f.pki.oids.keyBag })[f.pki.oids.keyBag!] ?? []),
  ];
  const certs = (pfx.getBags({ bagType: f.pki.oids.certBag })[f.pki.oids.certBag!] ?? []).map(certificateDer);
  const bag = keys[0];
  if (!bag) throw new SealCertificateError('no_key', 'the PKCS#12 file holds no private key');
  const key = bag.key
    ? createPrivateKey(f.pki.privateKeyToPem(bag.key))
    : createPrivateKey({ key: der((bag as unknown as { asn1: Forge.asn1.Asn1 }).asn1), format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType !== 'rsa' && key.asymmetricKeyType !== 'ec') {
    throw new SealCertificateError('unsupported_key', `the key is ${key.asymmetricKeyType ?? 'unknown'}; an RSA or EC key is needed`);
  }
  const mine = certs.find((c) => new X509Certificate(c).checkPrivateKey(key));
  if (!mine) throw new SealCertificateError('no_key', 'no certificate in the PKCS#12 file goes with its private key');
  return { key, certificate: mine, chain: certs.filter((c) => c !== mine), x509: new X509Certificate(mine) };
}

/**
 * The installation's own seal: made on first use and kept in DATA_DIR (`seal.p12`, encrypted with
 * the random passphrase in `seal-passphrase`, both 0600), then read back on every start. Two
 * processes starting together agree on one: each file is created by a hard link that fails when
 * the other got there first.
 */
export function persistedSeal(dataDir: string, publicUrl: string): SealKey {
  mkdirSync(dataDir, { recursive: true });
  const passphraseFile = join(dataDir, SEAL_FILES.passphrase);
  const p12File = join(dataDir, SEAL_FILES.p12);
  if (!existsSync(p12File)) {
    createOnce(passphraseFile, () => randomBytes(32).toString('base64url') + '\n');
    const passphrase = readFileSync(passphraseFile, 'utf8').trim();
    createOnce(p12File, () => createSelfSignedP12(publicUrl, passphrase));
  }
  if (!existsSync(passphraseFile)) throw new SealCertificateError('passphrase', `${p12File} exists but ${passphraseFile} is missing`);
  return readP12(readFileSync(p12File), readFileSync(passphraseFile, 'utf8').trim());
}

/** A new self-signed sealing certificate in a PKCS#12 file: `CN=Diván — sello de documentos, O=<host>`, 10 years. */
export function createSelfSignedP12(publicUrl: string, passphrase: string, commonName = 'Diván — sello de documentos'): Buffer {
  const f = forge();
  const pair = generateKeyPairSync('rsa', { modulusLength: SEAL_KEY_BITS });
  const privateKey = f.pki.privateKeyFromPem(pair.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const cert = f.pki.createCertificate();
  cert.publicKey = f.pki.publicKeyFromPem(pair.publicKey.export({ type: 'spki', format: 'pem' }).toString());
  // A positive serial of 16 random bytes.
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  cert.serialNumber = serial.toString('hex');
  const now = new Date();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now);
  cert.validity.notAfter.setUTCFullYear(now.getUTCFullYear() + SEAL_YEARS);
  const utf8 = f.asn1.Type.UTF8;
  const name = [
    { shortName: 'CN', value: commonName, valueTagClass: utf8 },
    { shortName: 'O', value: hostOf(publicUrl), valueTagClass: utf8 },
  ] as unknown as Forge.pki.CertificateField[];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', critical: true, digitalSignature: true, nonRepudiation: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(privateKey, f.md.sha256.create());
  const pfx = f.pkcs12.toPkcs12Asn1(privateKey, [cert], passphrase, { algorithm: 'aes256', friendlyName: commonName });
  return der(pfx);
}

export type CertificateInfo = {
  subject: string;
  issuer: string;
  /** SHA-256 of the certificate, as colon-separated hex (what browsers and openssl show). */
  fingerprintSha256: string;
  serialNumber: string;
  validFrom: Date;
  validTo: Date;
  selfSigned: boolean;
};

export function describeCertificate(x509: X509Certificate): CertificateInfo {
  return {
    subject: distinguishedName(x509.subject),
    issuer: distinguishedName(x509.issuer),
    fingerprintSha256: x509.fingerprint256,
    serialNumber: x509.serialNumber,
    validFrom: new Date(x509.validFrom),
    validTo: new Date(x509.validTo),
    selfSigned: x509.subject === x509.issuer && x509.verify(x509.publicKey),
  };
}

/** The common name of a certificate as written (what a reader shows as the signer), else its whole subject. */
export function commonName(x509: X509Certificate): string {
  const cn = x509.subject.split('\n').find((l) => l.startsWith('CN='));
  return cn ? unescapeDn(cn.slice(3), true) : distinguishedName(x509.subject);
}

/** Node prints a name one attribute a line, escaped as in RFC 4514 and non-ASCII as \\XX bytes of UTF-8: "CN=…, O=…" (commas still escaped). */
function distinguishedName(lines: string): string {
  return unescapeDn(lines.split('\n').filter(Boolean).join(', '), false);
}

/** Turns \\XX escapes back into UTF-8 text and, with `all`, drops the backslash of \\, \\+ and the like too. */
function unescapeDn(text: string, all: boolean): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = /^\\([0-9A-F]{2})/i.exec(text.slice(i, i + 3));
    if (hex) {
      bytes.push(parseInt(hex[1]!, 16));
      i += 2;
      continue;
    }
    if (all && text[i] === '\\' && i + 1 < text.length) i++;
    bytes.push(...Buffer.from(text[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

export function hostOf(publicUrl: string): string {
  try {
    return new URL(publicUrl).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}

function certificateDer(bag: Forge.pkcs12.Bag): Buffer {
  if (bag.cert) return der(forge().pki.certificateToAsn1(bag.cert));
  return der((bag as unknown as { asn1: Forge.asn1.Asn1 }).asn1);
}

const der = (node: Forge.asn1.Asn1) => Buffer.from(forge().asn1.toDer(node).getBytes(), 'binary');

/** Writes `file` unless it exists, atomically: the content goes to a temporary file first, then a hard link claims the name. */
function createOnce(file: string, content: () => string | Buffer) {
  if (existsSync(file)) return;
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, content(), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(temp);
  }
}
