import type PDFDocumentType from 'pdfkit';
import { FONT, fontFiles, registerFonts } from './fonts';

/** Calm and legible on screen and paper. */
export const COLORS = {
  primary: '#2f6f68',
  text: '#1f2a2a',
  muted: '#6b7575',
  rule: '#d5dddc',
  band: '#eef4f3',
  zebra: '#f7f9f9',
} as const;
export const SIZES = { title: 17, heading: 11.5, body: 9.5, small: 8.5, footer: 7.5 } as const;
/** A4 in points; the bottom margin holds the footer. */
export const MARGINS = { top: 48, left: 50, right: 50, bottom: 72 } as const;

export type DocumentOptions = {
  title: string;
  author: string;
  subject?: string;
  keywords?: string;
  /** BCP 47, for screen readers and hyphenation. */
  language?: string;
  createdAt?: Date;
  /** Free text at the foot of every page, beside "Página N de M" (an invoice's legal footer). */
  footer?: string;
};

type KitState = { root: PDFKit.PDFStructureElement; footer: string; finished: boolean };
const states = new WeakMap<PDFKit.PDFDocument, KitState>();

function state(doc: PDFKit.PDFDocument): KitState {
  const s = states.get(doc);
  if (!s) throw new Error('not a document made by createDocument');
  return s;
}

/**
 * A new A4 document of the kit: DejaVu Sans embedded, PDF/A-2b (PDF 1.7, sRGB output intent, XMP
 * metadata), tagged (a structure tree of headings, paragraphs and tables; decoration and page
 * furniture as artifacts), pages buffered so `finish` can number them. pdfkit loads on first use.
 */
export async function createDocument(opts: DocumentOptions): Promise<PDFKit.PDFDocument> {
  const { default: PDFDocument }: { default: typeof PDFDocumentType } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margins: { ...MARGINS },
    bufferPages: true,
    pdfVersion: '1.7',
    subset: 'PDF/A-2b',
    tagged: true,
    lang: opts.language ?? 'es-ES',
    displayTitle: true,
    // A TTF as the default font, so not even Helvetica is loaded.
    font: fontFiles().regular,
    info: {
      Title: opts.title,
      Author: opts.author,
      ...(opts.subject ? { Subject: opts.subject } : {}),
      ...(opts.keywords ? { Keywords: opts.keywords } : {}),
      Creator: 'Diván',
      Producer: 'Diván (PDFKit)',
      CreationDate: opts.createdAt ?? new Date(),
    },
  });
  escapeXmp(doc);
  registerFonts(doc).fontSize(SIZES.body).fillColor(COLORS.text);
  const root = doc.struct('Document');
  doc.addStructure(root);
  states.set(doc, { root, footer: opts.footer ?? '', finished: false });
  return doc;
}

export function setFooter(doc: PDFKit.PDFDocument, footer: string) {
  state(doc).footer = footer;
}

/** Draws `draw`'s content as one structure element (P, H1, Figure…) of the document. */
export function tagged(doc: PDFKit.PDFDocument, type: string, draw: () => void, options: PDFKit.Mixins.StructureElementOptions = {}) {
  state(doc).root.add(doc.struct(type, options, draw));
}

/** A structure element to fill step by step (a table and its rows). */
export function openElement(doc: PDFKit.PDFDocument, type: string, parent?: PDFKit.PDFStructureElement): PDFKit.PDFStructureElement {
  const element = doc.struct(type);
  (parent ?? state(doc).root).add(element);
  return element;
}

/** Content that is not part of the text a reader follows: rules, bands, logos, page numbers. */
export function artifact(doc: PDFKit.PDFDocument, draw: () => void) {
  doc.markContent('Artifact');
  try {
    draw();
  } finally {
    doc.endMarkedContent();
  }
}

/** The lowest y content may reach on this page. */
export const bottomOf = (doc: PDFKit.PDFDocument) => doc.page.height - doc.page.margins.bottom;
export const contentWidth = (doc: PDFKit.PDFDocument) => doc.page.width - doc.page.margins.left - doc.page.margins.right;

/** A new page unless `height` points still fit on this one. */
export function ensureSpace(doc: PDFKit.PDFDocument, height: number) {
  if (doc.y + height > bottomOf(doc)) doc.addPage();
  doc.x = doc.page.margins.left;
}

/**
 * Draws the footer and "Página N de M" on every page, closes the structure and ends the
 * document, which is a readable stream of the PDF from then on.
 */
export function finish(doc: PDFKit.PDFDocument): PDFKit.PDFDocument {
  const s = state(doc);
  if (s.finished) return doc;
  s.finished = true;
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const { left, right } = doc.page.margins;
    const width = doc.page.width - left - right;
    const top = doc.page.height - MARGINS.bottom + 24;
    // Writing inside the bottom margin must not open a new page.
    doc.page.margins.bottom = 0;
    artifact(doc, () => {
      doc
        .moveTo(left, top)
        .lineTo(left + width, top)
        .lineWidth(0.5)
        .strokeColor(COLORS.rule)
        .stroke();
      doc.font(FONT.regular).fontSize(SIZES.footer).fillColor(COLORS.muted);
      const pageLabel = `Página ${i - start + 1} de ${count}`;
      const labelWidth = doc.widthOfString(pageLabel);
      if (s.footer) doc.text(s.footer, left, top + 7, { width: width - labelWidth - 24, lineGap: 1, height: 30, ellipsis: true });
      doc.text(pageLabel, left + width - labelWidth, top + 7, { lineBreak: false });
    });
  }
  s.root.end();
  doc.end();
  return doc;
}

/** The finished document's bytes (for a stored invoice or a signed consent). */
export function renderToBuffer(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.once('end', () => resolve(Buffer.concat(chunks)));
    doc.once('error', reject);
    finish(doc);
  });
}

/**
 * pdfkit copies Title, Author and Subject into the XMP packet without escaping them: a "&" or "<"
 * in a patient's or a workspace's name would break the XML PDF/A readers check. Escaped there only;
 * the Info dictionary keeps the text as written.
 */
function escapeXmp(doc: PDFKit.PDFDocument) {
  const d = doc as unknown as { _addInfo: () => void; info: Record<string, unknown> };
  const addInfo = d._addInfo;
  d._addInfo = function (this: typeof d) {
    const info = this.info;
    const esc = (v: unknown) => (typeof v === 'string' ? v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : v);
    this.info = {
      ...info,
      Title: esc(info.Title),
      Author: esc(info.Author),
      Subject: esc(info.Subject),
      Keywords: esc(info.Keywords),
      Creator: esc(info.Creator),
    };
    try {
      addInfo.call(this);
    } finally {
      this.info = info;
    }
  };
}
