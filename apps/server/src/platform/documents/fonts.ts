import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * DejaVu Sans, shipped in `apps/server/assets/fonts` (licence beside it): a Unicode TTF embedded
 * (subset) in every document, so "Ñ € — « » l·l Ω" print as written. The 14 standard PDF fonts
 * speak only Windows-1252 and are never used.
 */
export const FONT = { regular: 'DejaVuSans', bold: 'DejaVuSans-Bold' } as const;
const FILES = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' } as const;

const here = dirname(fileURLToPath(import.meta.url));
/**
 * This module runs from src/platform/documents (tsx, tests) or bundled into dist/main.js
 * (`npm start`): the same assets folder, reached from either place, as app.ts reaches ../drizzle.
 */
export const FONT_DIR_CANDIDATES = [resolve(here, '../../../assets/fonts'), resolve(here, '../assets/fonts')];

let found: { regular: string; bold: string } | undefined;

/** The font files' paths; a clear error when the assets folder was not deployed beside src/ or dist/. */
export function fontFiles(): { regular: string; bold: string } {
  if (found) return found;
  const dir = FONT_DIR_CANDIDATES.find((d) => existsSync(join(d, FILES.regular)) && existsSync(join(d, FILES.bold)));
  if (!dir) throw new Error(`DejaVu fonts not found (looked in ${FONT_DIR_CANDIDATES.join(', ')}): deploy apps/server/assets beside dist/`);
  found = { regular: join(dir, FILES.regular), bold: join(dir, FILES.bold) };
  return found;
}

/** Registers both weights under FONT's names and selects the regular one. */
export function registerFonts(doc: PDFKit.PDFDocument): PDFKit.PDFDocument {
  const files = fontFiles();
  return doc.registerFont(FONT.regular, files.regular).registerFont(FONT.bold, files.bold).font(FONT.regular);
}
