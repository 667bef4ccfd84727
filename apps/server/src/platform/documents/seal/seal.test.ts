import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../config';
import { heading, paragraph, title } from '../pdf-blocks';
import { createDocument, renderToBuffer } from '../pdf-kit';
import { createSelfSignedP12, SEAL_FILES } from './certificate';
import { pdfString } from './document-seal';
import { DocumentSeal, SealCertificateError, verifySealed } from './index';

/**
 * pdfsig (poppler-utils) is the outside judge of the seal. Without it these checks are skipped with
 * a message, except under CI=true, where they run and fail.
 */
const hasPdfsig = spawnSync('pdfsig', ['-v']).error === undefined;
const skipPdfsig = !hasPdfsig && process.env.CI !== 'true';
if (skipPdfsig) console.warn('Seal checks with pdfsig skipped: poppler-utils is not installed (apt-get install poppler-utils)');
const hasOpenssl = spawnSync('openssl', ['version']).error === undefined;

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'divan-seal-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** pdfsig's report of a PDF (it exits non-zero for an invalid signature, so its status is not used). */
function pdfsig(pdf: Buffer): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'f.pdf'), pdf);
  const run = spawnSync('pdfsig', [join(dir, 'f.pdf')], { encoding: 'utf8' });
  return `${run.stdout}${run.stderr}`;
}
const pdftotext = (pdf: Buffer) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'f.pdf'), pdf);
  return execFileSync('pdftotext', ['-enc', 'UTF-8', join(dir, 'f.pdf'), '-'], { encoding: 'utf8' });
};

async function consentPdf(): Promise<Buffer> {
  const doc = await createDocument({ title: 'Consentimiento informado', author: 'Clínica Mar & Sol' });
  title(doc, 'Consentimiento informado', 'Tratamiento psicológico — Ñuria Peña');
  heading(doc, 'Información');
  paragraph(doc, 'La paciente acepta el tratamiento y el tratamiento de sus datos (RGPD), «con firma».');
  return renderToBuffer(doc);
}

const PUBLIC_URL = 'https://consulta.example.es';
let dataDir: string;
let seal: DocumentSeal;
let original: Buffer;
let sealed: Buffer;
const signedAt = new Date('2025-03-04T10:20:30Z');

beforeAll(async () => {
  dataDir = tempDir();
  seal = DocumentSeal.open({ dataDir, publicUrl: PUBLIC_URL });
  original = await consentPdf();
  sealed = await seal.seal(original, { reason: 'Consentimiento informado firmado (Ñuria)', contactInfo: 'hola@example.es' }, signedAt);
}, 60_000);

describe('the installation certificate', () => {
  it('is made once in DATA_DIR, kept private, and the same on the next open', () => {
    const info = seal.certificateInfo();
    expect(info).toMatchObject({ subject: 'CN=Diván — sello de documentos, O=consulta.example.es', source: 'generated', selfSigned: true });
    expect(info.fingerprintSha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(info.validTo.getUTCFullYear() - info.validFrom.getUTCFullYear()).toBe(10);
    expect(statSync(join(dataDir, SEAL_FILES.p12)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, SEAL_FILES.passphrase)).mode & 0o777).toBe(0o600);
    const p12 = readFileSync(join(dataDir, SEAL_FILES.p12));
    const again = DocumentSeal.open({ dataDir, publicUrl: 'https://otra.example.es' });
    expect(again.certificateInfo()).toEqual(info);
    expect(readFileSync(join(dataDir, SEAL_FILES.p12)).equals(p12)).toBe(true);
  });

  it.skipIf(!hasOpenssl)('opens with openssl and the kept passphrase, with the key usages of a seal', () => {
    const text = execFileSync(
      'sh',
      [
        '-c',
        `openssl pkcs12 -in "$1" -passin file:"$2" -nokeys | openssl x509 -noout -text`,
        'sh',
        join(dataDir, SEAL_FILES.p12),
        join(dataDir, SEAL_FILES.passphrase),
      ],
      { encoding: 'utf8' },
    );
    expect(text).toMatch(/Public-Key: \(3072 bit\)/);
    expect(text).toMatch(/Digital Signature, Non Repudiation/);
    expect(text).toMatch(/sha256WithRSAEncryption/);
  });
});

describe('sealing a PDF of the document kit', () => {
  it('is a valid signature for pdfsig, and for verifySealed', () => {
    expect(verifySealed(sealed)).toEqual({
      valid: true,
      signer: 'Diván — sello de documentos',
      signedAt,
      fingerprintSha256: seal.certificateInfo().fingerprintSha256,
    });
    expect(seal.verify(sealed).ours).toBe(true);
    expect(verifySealed(original)).toEqual({ valid: false });
    if (skipPdfsig) return;
    const report = pdfsig(sealed);
    expect(report).toContain('Signature #1:');
    expect(report).toContain('Signer Certificate Common Name: Diván — sello de documentos');
    expect(report).toContain('Signing Hash Algorithm: SHA-256');
    expect(report).toContain('Signature Type: ETSI.CAdES.detached');
    expect(report).toContain('Total document signed');
    expect(report).toContain('Signature Validation: Signature is Valid.');
  });

  it('still reads as text, with its accents', () => {
    if (skipPdfsig) return;
    const text = pdftotext(sealed);
    expect(text).toContain('Consentimiento informado');
    expect(text).toContain('Tratamiento psicológico — Ñuria Peña');
  });

  it('one byte changed inside the signed range: both pdfsig and verifySealed say invalid', () => {
    const raw = sealed.toString('latin1');
    // The version in the header, and the title in the XMP metadata ("Consentimiento" becomes "consentimiento").
    for (const at of [raw.indexOf('%PDF-1.7') + 7, raw.indexOf('x-default">Consentimiento') + 'x-default">'.length]) {
      expect(at).toBeGreaterThan(6);
      const tampered = Buffer.from(sealed);
      tampered[at] = tampered[at]! ^ 0x20;
      expect(verifySealed(tampered).valid).toBe(false);
      if (skipPdfsig) continue;
      const report = pdfsig(tampered);
      expect(report).toContain('Signature Validation: Digest Mismatch.');
      expect(report).not.toContain('Signature is Valid.');
    }
    // Bytes added after the seal (an incremental update): the signature no longer covers the file.
    const appended = Buffer.concat([sealed, Buffer.from('\n% más\n')]);
    expect(verifySealed(appended).valid).toBe(false);
    if (!skipPdfsig) expect(pdfsig(appended)).not.toContain('Total document signed');
  });

  it('refuses what is not a PDF, and a PDF already signed', async () => {
    await expect(seal.seal(Buffer.from('hola'), { reason: 'x' })).rejects.toThrow(/not a PDF/);
    await expect(seal.seal(sealed, { reason: 'x' })).rejects.toThrow(/already signed/);
  });

  it('writes any text as a PDF string (pdf-lib writes it as given)', () => {
    expect(pdfString('a (b) \\ c')).toBe('a \\(b\\) \\\\ c');
    expect(pdfString('Ñ')).toBe('\\376\\377\\000\\321');
  });
});

describe('a configured certificate (SEAL_P12)', () => {
  it('seals with it, and a wrong passphrase is a clear error', async () => {
    const p12 = createSelfSignedP12(PUBLIC_URL, 'clave buena', 'Clínica Mar, S.L.');
    const configured = DocumentSeal.open({ dataDir: tempDir(), p12, passphrase: 'clave buena', publicUrl: PUBLIC_URL });
    expect(configured.certificateInfo()).toMatchObject({ subject: 'CN=Clínica Mar\\, S.L., O=consulta.example.es', source: 'configured' });
    const pdf = await configured.seal(original, { reason: 'Consentimiento', location: 'Madrid', name: 'Clínica Mar' });
    expect(verifySealed(pdf)).toMatchObject({ valid: true, signer: 'Clínica Mar, S.L.' });
    expect(seal.verify(pdf)).toMatchObject({ valid: true, ours: false });
    if (!skipPdfsig) expect(pdfsig(pdf)).toContain('Signature Validation: Signature is Valid.');

    const wrong = () => DocumentSeal.open({ dataDir: tempDir(), p12, passphrase: 'otra', publicUrl: PUBLIC_URL });
    expect(wrong).toThrow(SealCertificateError);
    expect(wrong).toThrow('the passphrase does not open the PKCS#12 file');
    expect(() => DocumentSeal.open({ dataDir: tempDir(), p12: Buffer.from('no es un p12'), publicUrl: PUBLIC_URL })).toThrow(
      /not a readable PKCS#12/,
    );
  }, 30_000);

  it.skipIf(!hasOpenssl)(
    'reads a .p12 made by openssl 3 (AES-256, SHA-256 MAC) with its CA chain',
    async () => {
      const dir = tempDir();
      const sh = (cmd: string) => execFileSync('sh', ['-c', cmd], { cwd: dir, stdio: 'pipe' });
      sh('openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 30 -subj "/CN=CA de prueba"');
      sh('openssl req -newkey rsa:2048 -nodes -keyout k.pem -out r.csr -subj "/CN=Consulta de prueba/O=Prueba"');
      sh('openssl x509 -req -in r.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out c.pem -days 30');
      sh('openssl pkcs12 -export -inkey k.pem -in c.pem -certfile ca.pem -out s.p12 -passout pass:secreto');
      const p12 = readFileSync(join(dir, 's.p12'));
      const configured = DocumentSeal.open({ dataDir: dir, p12, passphrase: 'secreto', publicUrl: PUBLIC_URL });
      expect(configured.certificateInfo()).toMatchObject({
        subject: 'CN=Consulta de prueba, O=Prueba',
        issuer: 'CN=CA de prueba',
        selfSigned: false,
      });
      const pdf = await configured.seal(original, { reason: 'Consentimiento' });
      expect(verifySealed(pdf)).toMatchObject({ valid: true, signer: 'Consulta de prueba' });
      if (!skipPdfsig) expect(pdfsig(pdf)).toContain('Signature Validation: Signature is Valid.');
    },
    30_000,
  );

  it('SEAL_P12 and SEAL_P12_PASSPHRASE: a missing file or a wrong passphrase stops start-up naming the variable', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 's.p12'), createSelfSignedP12(PUBLIC_URL, 'buena'));
    const env = { DATA_DIR: dir, APP_SECRET: 'x'.repeat(40), SEAL_P12: join(dir, 's.p12') };
    expect(loadConfig({ ...env, SEAL_P12_PASSPHRASE: 'buena' }).seal).toMatchObject({ passphrase: 'buena' });
    expect(() => loadConfig({ ...env, SEAL_P12_PASSPHRASE: 'mala' })).toThrow(/^Invalid environment variable SEAL_P12_PASSPHRASE: /);
    expect(() => loadConfig({ ...env, SEAL_P12: join(dir, 'no.p12') })).toThrow(/^Invalid environment variable SEAL_P12: cannot read /);
    expect(() => loadConfig({ ...env, SEAL_P12: undefined, SEAL_P12_PASSPHRASE: 'buena' })).toThrow(
      /^Invalid environment variable SEAL_P12: required with SEAL_P12_PASSPHRASE/,
    );
    expect(loadConfig({ DATA_DIR: dir, APP_SECRET: 'x'.repeat(40) }).seal).toBeUndefined();
  });
});
