import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsQR from 'jsqr';

/**
 * Poppler's command-line tools (poppler-utils) read back the PDFs we make: their text, metadata
 * and images. Without them the PDF checks are skipped with a message, except under CI=true, where
 * they run and fail (`.ci/run` installs poppler-utils).
 */
function installed(): boolean {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
export const hasPoppler = installed();
export const skipPdfChecks = !hasPoppler && process.env.CI !== 'true';
if (skipPdfChecks) console.warn('PDF checks skipped: poppler-utils is not installed (apt-get install poppler-utils)');

/** Runs `fn` with the PDF written to a temporary folder. */
function withFile<T>(pdf: Buffer, fn: (file: string, dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'divan-pdf-'));
  try {
    writeFileSync(join(dir, 'f.pdf'), pdf);
    return fn(join(dir, 'f.pdf'), dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text, page by page (pdftotext separates pages with a form feed). */
export const pdfPages = (pdf: Buffer): string[] =>
  withFile(pdf, (f) => execFileSync('pdftotext', ['-enc', 'UTF-8', f, '-'], { encoding: 'utf8' }))
    .split('\f')
    .slice(0, -1);
export const pdfText = (pdf: Buffer) => pdfPages(pdf).join('\n');

/** The text as laid out on the page (`pdftotext -layout`): a table row reads as one line. */
export const pdfLayoutText = (pdf: Buffer): string =>
  withFile(pdf, (f) => execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', f, '-'], { encoding: 'utf8' }));

/** pdfinfo's fields (Title, Author, Pages, Tagged…) and the XMP packet. */
export function pdfInfo(pdf: Buffer): { fields: Record<string, string>; xmp: string } {
  return withFile(pdf, (f) => {
    const fields: Record<string, string> = {};
    for (const line of execFileSync('pdfinfo', ['-enc', 'UTF-8', f], { encoding: 'utf8' }).split('\n')) {
      const m = /^([^:]+):\s*(.*)$/.exec(line);
      if (m) fields[m[1]!] = m[2]!;
    }
    return { fields, xmp: execFileSync('pdfinfo', ['-meta', f], { encoding: 'utf8' }) };
  });
}

export type PdfImage = { page: number; type: string; width: number; height: number; color: string };
export const pdfImages = (pdf: Buffer): PdfImage[] =>
  withFile(pdf, (f) =>
    execFileSync('pdfimages', ['-list', f], { encoding: 'utf8' })
      .split('\n')
      .slice(2)
      .filter((l) => l.trim())
      .map((l) => l.trim().split(/\s+/))
      .map((c) => ({ page: Number(c[0]), type: c[2]!, width: Number(c[3]), height: Number(c[4]), color: c[5]! })),
  );

/** The images of the PDF as decoded pixels: PPM (colour) or PGM/PBM files, as pdfimages writes them by default. */
export function pdfImagePixels(pdf: Buffer): { width: number; height: number; channels: number; data: Buffer }[] {
  return withFile(pdf, (f, dir) => {
    execFileSync('pdfimages', [f, join(dir, 'img')]);
    return readdirSync(dir)
      .filter((n) => n.startsWith('img') && /\.p[gp]m$/.test(n))
      .sort()
      .map((n) => parseNetpbm(readFileSync(join(dir, n))));
  });
}

function parseNetpbm(b: Buffer) {
  // "P6\n<w> <h>\n255\n" then the samples (P5: one channel).
  const header = /^(P[56])\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(b.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error('not a binary PPM/PGM');
  return { width: Number(header[2]), height: Number(header[3]), channels: header[1] === 'P6' ? 3 : 1, data: b.subarray(header[0].length) };
}

/** Page `page` rendered by poppler (150 dpi, grey) and the QR code read back from the pixels, or null. */
export function pdfQrCode(pdf: Buffer, page = 1): string | null {
  return withFile(pdf, (f, dir) => {
    execFileSync('pdftoppm', ['-gray', '-r', '150', '-f', String(page), '-l', String(page), f, join(dir, 'p')]);
    const file = readdirSync(dir).find((n) => n.endsWith('.pgm'))!;
    const { width, height, data: grey } = parseNetpbm(readFileSync(join(dir, file)));
    const rgba = new Uint8ClampedArray(width * height * 4);
    for (let i = 0; i < width * height; i++) rgba.set([grey[i]!, grey[i]!, grey[i]!, 255], i * 4);
    return jsQR(rgba, width, height)?.data ?? null;
  });
}
