import { SignPdf } from '@signpdf/signpdf';
import { Signer, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import { commonName, describeCertificate, hostOf, persistedSeal, readP12, type CertificateInfo, type SealKey } from './certificate';
import { signDetached, verifyDetached } from './cms';

export type SealInfo = {
  /** Why the document is sealed, e.g. «Consentimiento informado firmado por la paciente». */
  reason: string;
  /** Default: the host of PUBLIC_URL. */
  location?: string;
  /** Default: the certificate's common name. */
  name?: string;
  contactInfo?: string;
};

export type SealOptions = {
  dataDir: string;
  /** SEAL_P12's bytes and SEAL_P12_PASSPHRASE; without them, the installation's own certificate in dataDir. */
  p12?: Buffer;
  passphrase?: string;
  publicUrl: string;
};

export type SealCheck = {
  /** Every signature's bytes and CMS check out, and the last one covers the whole file. */
  valid: boolean;
  /** The signer certificate's common name. */
  signer?: string;
  /** The signature dictionary's /M (when the seal was made, as the signer said). */
  signedAt?: Date;
  /** SHA-256 of the signer's certificate, colon-separated hex (compare with certificateInfo()). */
  fingerprintSha256?: string;
};

/** CMS signer for @signpdf: our own detached PAdES-B signature (see cms.ts). */
class SealSigner extends Signer {
  constructor(private readonly key: SealKey) {
    super();
  }
  override async sign(signed: Buffer): Promise<Buffer> {
    return signDetached(signed, this.key);
  }
}

/**
 * The seal of the documents this installation signs (consents): an invisible PDF signature,
 * PAdES baseline B (ETSI.CAdES.detached, SHA-256), that any reader (Acrobat, pdfsig) checks.
 * It proves the file is unchanged since it was sealed, by this installation; the certificate is
 * self-signed unless SEAL_P12 gives one, so readers call its issuer "not trusted".
 */
export class DocumentSeal {
  private constructor(
    private readonly key: SealKey,
    readonly source: 'configured' | 'generated',
    private readonly location: string,
  ) {}

  /** Opens SEAL_P12 when given, else the certificate kept in dataDir (created on the first call). Throws SealCertificateError. */
  static open(opts: SealOptions): DocumentSeal {
    const location = hostOf(opts.publicUrl);
    if (opts.p12) return new DocumentSeal(readP12(opts.p12, opts.passphrase), 'configured', location);
    return new DocumentSeal(persistedSeal(opts.dataDir, opts.publicUrl), 'generated', location);
  }

  /** For the README and the evidence page: who seals, the certificate's fingerprint and validity. */
  certificateInfo(): CertificateInfo & { source: 'configured' | 'generated' } {
    return { ...describeCertificate(this.key.x509), source: this.source };
  }

  /**
   * Seals a finished PDF (the kit's `renderToBuffer`): pdf-lib adds the signature field and the
   * placeholder (@signpdf/placeholder-pdf-lib, writing the file out again), then @signpdf/signpdf
   * fills in the ByteRange and the CMS. A PDF that is already signed is refused: rewriting it
   * would break that signature.
   */
  async seal(pdf: Buffer, info: SealInfo, at: Date = new Date()): Promise<Buffer> {
    if (!pdf.subarray(0, 5).equals(Buffer.from('%PDF-'))) throw new Error('DocumentSeal.seal: not a PDF');
    if (pdf.includes('/ByteRange')) throw new Error('DocumentSeal.seal: the PDF is already signed');
    const [{ PDFDocument }, { pdflibAddPlaceholder }] = await Promise.all([import('pdf-lib'), import('@signpdf/placeholder-pdf-lib')]);
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    pdflibAddPlaceholder({
      pdfDoc: doc,
      reason: pdfString(info.reason),
      name: pdfString(info.name ?? commonName(this.key.x509)),
      location: pdfString(info.location ?? this.location),
      contactInfo: pdfString(info.contactInfo ?? ''),
      signingTime: at,
      // Hex digits: twice the certificates' bytes, plus room for the signature and the attributes.
      signatureLength: 2 * (this.key.certificate.length + this.key.chain.reduce((n, c) => n + c.length, 0) + 2048),
      subFilter: SUBFILTER_ETSI_CADES_DETACHED,
      appName: 'Diván',
    });
    const withPlaceholder = Buffer.from(await doc.save({ useObjectStreams: false }));
    return new SignPdf().sign(withPlaceholder, new SealSigner(this.key), at);
  }

  /** verifySealed, and whether the signer is this seal's certificate. */
  verify(pdf: Buffer): SealCheck & { ours: boolean } {
    const check = verifySealed(pdf);
    return { ...check, ours: check.valid && check.fingerprintSha256 === this.key.x509.fingerprint256 };
  }
}

const BYTE_RANGE = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;

/**
 * Checks a sealed PDF without any outside tool: for each signature, the digest of the bytes its
 * ByteRange covers and the CMS signature, against the certificate the signature carries. Says
 * nothing about whether that certificate is trusted (compare fingerprintSha256 for that).
 */
export function verifySealed(pdf: Buffer): SealCheck {
  const text = pdf.toString('latin1');
  const ranges = [...text.matchAll(BYTE_RANGE)].map((m) => m.slice(1, 5).map(Number) as [number, number, number, number]);
  if (ranges.length === 0) return { valid: false };
  let last: SealCheck = { valid: false };
  for (const [a, b, c, d] of ranges.sort((x, y) => x[2] + x[3] - (y[2] + y[3]))) {
    if (a !== 0 || b <= 0 || c <= b + 1 || c + d > pdf.length || text[b] !== '<' || text[c - 1] !== '>') return { valid: false };
    const hex = text.slice(b + 1, c - 1);
    if (!/^[0-9a-fA-F]*$/.test(hex)) return { valid: false };
    const result = verifyDetached(Buffer.from(hex, 'hex'), Buffer.concat([pdf.subarray(0, b), pdf.subarray(c, c + d)]));
    if (!result.valid || !result.certificate) return { valid: false };
    last = {
      valid: c + d === pdf.length,
      signer: commonName(result.certificate),
      signedAt: signatureTime(text, b, c) ?? result.signingTime,
      fingerprintSha256: result.certificate.fingerprint256,
    };
  }
  return last;
}

/** /M of the signature dictionary around /Contents (at `start`…`end`): D:YYYYMMDDHHmmSS, then Z or ±HH'mm'. */
function signatureTime(text: string, start: number, end: number): Date | undefined {
  const from = text.lastIndexOf(' obj', start);
  const to = text.indexOf('endobj', end);
  const dict = text.slice(from < 0 ? 0 : from, to < 0 ? undefined : to);
  const m = /\/M\s*\(D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Z+-])?(\d{2})?'?(\d{2})?'?\)/.exec(dict);
  if (!m) return undefined;
  const n = (i: number, fallback: number) => (m[i] ? Number(m[i]) : fallback);
  const utc = Date.UTC(n(1, 0), n(2, 1) - 1, n(3, 1), n(4, 0), n(5, 0), n(6, 0));
  const offset = m[7] === '+' || m[7] === '-' ? (m[7] === '-' ? -1 : 1) * (n(8, 0) * 60 + n(9, 0)) : 0;
  return new Date(utc - offset * 60_000);
}

/**
 * The value of a PDF literal string for pdf-lib's PDFString.of, which writes it as given: ASCII
 * with ( ) \ escaped, anything else as UTF-16BE (with its byte-order mark) in octal escapes.
 */
export function pdfString(value: string): string {
  if (/^[\x20-\x7e]*$/.test(value)) return value.replace(/[\\()]/g, '\\$&');
  const utf16 = Buffer.from('\ufeff' + value, 'utf16le').swap16();
  return [...utf16].map((b) => '\\' + b.toString(8).padStart(3, '0')).join('');
}
