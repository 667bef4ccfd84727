import { createHash, sign, verify, X509Certificate } from 'node:crypto';
import type { SealKey } from './certificate';

/**
 * A detached CMS SignedData (RFC 5652) over the bytes a PDF signature covers, shaped for PAdES
 * baseline B (ETSI EN 319 142-1): SHA-256, signed attributes content-type, message-digest and
 * ESS signing-certificate-v2 (the signer's certificate bound into the signature), no signing-time
 * attribute (the PDF's /M says when). Built with a few lines of DER and Node's crypto.
 */

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
} as const;

/** Digest algorithms a signature we read may use, by OID. */
const DIGESTS: Record<string, string> = {
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
  '1.3.14.3.2.26': 'sha1',
};

// ---- DER writing ----

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const seq = (...parts: Buffer[]) => tlv(0x30, ...parts);
/** A DER SET OF: its elements in the order of their encodings. */
const setOf = (...parts: Buffer[]) => tlv(0x31, ...[...parts].sort(Buffer.compare));
const octets = (b: Buffer) => tlv(0x04, b);
const NULL = Buffer.from([0x05, 0x00]);
const ONE = Buffer.from([0x02, 0x01, 0x01]);

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [a! * 40 + b!];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}
const attribute = (type: string, value: Buffer) => seq(oid(type), setOf(value));

// ---- DER reading ----

type Node = { tag: number; start: number; body: number; end: number; buf: Buffer };

function read(buf: Buffer, start = 0): Node {
  const tag = buf[start]!;
  if ((tag & 0x1f) === 0x1f) throw new Error('unsupported tag');
  let len = buf[start + 1]!;
  let body = start + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new Error('unsupported length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[body + i]!;
    body += n;
  }
  if (body + len > buf.length) throw new Error('truncated');
  return { tag, start, body, end: body + len, buf };
}
function children(node: Node): Node[] {
  const out: Node[] = [];
  for (let at = node.body; at < node.end;) {
    const child = read(node.buf.subarray(0, node.end), at);
    out.push(child);
    at = child.end;
  }
  return out;
}
const whole = (n: Node) => n.buf.subarray(n.start, n.end);
const content = (n: Node) => n.buf.subarray(n.body, n.end);

function oidText(n: Node): string {
  const b = content(n);
  const parts = [Math.floor(b[0]! / 40), b[0]! % 40];
  let v = 0;
  for (const byte of b.subarray(1)) {
    v = v * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(v);
      v = 0;
    }
  }
  return parts.join('.');
}

/** The serial number and issuer name of a certificate, as they are encoded in it. */
function issuerAndSerial(certificate: Buffer): { serial: Buffer; issuer: Buffer } {
  const tbs = children(children(read(certificate))[0]!);
  const first = tbs[0]!.tag === 0xa0 ? 1 : 0;
  return { serial: whole(tbs[first]!), issuer: whole(tbs[first + 2]!) };
}

/** The CMS signature (DER) of `signed`, the bytes of the PDF outside /Contents. */
export function signDetached(signed: Buffer, seal: SealKey): Buffer {
  const { serial, issuer } = issuerAndSerial(seal.certificate);
  const sha256 = seq(oid(OID.sha256));
  const certHash = createHash('sha256').update(seal.certificate).digest();
  // ESSCertIDv2 { certHash, issuerSerial { GeneralNames { [4] directoryName }, serialNumber } } (SHA-256 is its default hash).
  const essCertId = seq(octets(certHash), seq(seq(tlv(0xa4, issuer)), serial));
  const attrs = setOf(
    attribute(OID.contentType, oid(OID.data)),
    attribute(OID.messageDigest, octets(createHash('sha256').update(signed).digest())),
    attribute(OID.signingCertificateV2, seq(seq(essCertId))),
  );
  const ec = seal.key.asymmetricKeyType === 'ec';
  // The signature covers the attributes as a SET; the SignerInfo carries them as [0] IMPLICIT.
  const signature = sign('sha256', attrs, seal.key);
  const signerInfo = seq(
    ONE,
    seq(issuer, serial),
    sha256,
    Buffer.concat([Buffer.from([0xa0]), attrs.subarray(1)]),
    ec ? seq(oid(OID.ecdsaWithSha256)) : seq(oid(OID.rsaEncryption), NULL),
    octets(signature),
  );
  const signedData = seq(ONE, setOf(sha256), seq(oid(OID.data)), tlv(0xa0, seal.certificate, ...seal.chain), setOf(signerInfo));
  return seq(oid(OID.signedData), tlv(0xa0, signedData));
}

export type CmsCheck = { valid: boolean; certificate?: X509Certificate; signingTime?: Date };

/**
 * Checks a detached CMS signature (trailing zero padding allowed) over `signed`: the message
 * digest attribute matches the bytes, and the signature over the attributes verifies with one of
 * the certificates it carries. Anything unreadable is simply invalid.
 */
export function verifyDetached(cms: Buffer, signed: Buffer): CmsCheck {
  try {
    const [type, wrapped] = children(read(cms));
    if (oidText(type!) !== OID.signedData) return { valid: false };
    const parts = children(children(wrapped!)[0]!);
    const certificates = children(parts.find((p) => p.tag === 0xa0)!).map((c) => new X509Certificate(whole(c)));
    const infos = children(parts[parts.length - 1]!);
    if (infos.length !== 1) return { valid: false };
    const info = children(infos[0]!);
    const digest = DIGESTS[oidText(children(info[2]!)[0]!)];
    if (!digest) return { valid: false };
    const signedAttrs = info[3]!.tag === 0xa0 ? info[3]! : undefined;
    const signature = content(info[info.indexOf(signedAttrs ?? info[2]!) + 2]!);
    let toVerify = signed;
    let signingTime: Date | undefined;
    if (signedAttrs) {
      const attrs = new Map(children(signedAttrs).map((a) => [oidText(children(a)[0]!), children(children(a)[1]!)[0]!]));
      const md = attrs.get(OID.messageDigest);
      if (!md || !content(md).equals(createHash(digest).update(signed).digest())) return { valid: false };
      const time = attrs.get(OID.signingTime);
      if (time) signingTime = asn1Time(time);
      toVerify = Buffer.concat([Buffer.from([0x31]), whole(signedAttrs).subarray(1)]);
    }
    const certificate = certificates.find((c) => verify(digest, toVerify, c.publicKey, signature));
    return certificate ? { valid: true, certificate, signingTime } : { valid: false };
  } catch {
    return { valid: false };
  }
}

function asn1Time(n: Node): Date | undefined {
  const text = content(n).toString('latin1');
  const m = /^(\d{2}|\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!m) return undefined;
  const year = m[1]!.length === 2 ? (Number(m[1]) < 50 ? 2000 : 1900) + Number(m[1]) : Number(m[1]);
  return new Date(Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])));
}
