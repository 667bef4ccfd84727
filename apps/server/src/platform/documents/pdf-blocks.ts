import { FONT } from './fonts';
import { artifact, COLORS, contentWidth, ensureSpace, SIZES, tagged } from './pdf-kit';

type Doc = PDFKit.PDFDocument;

export type HeaderOptions = {
  /** The workspace's or the therapist's name. */
  name: string;
  /** A line under the name (a profession, a registration number). */
  subtitle?: string;
  /** PNG or JPEG bytes, drawn on the left within a 44-point square; other formats are left out. */
  logo?: Buffer | null;
  /** Right-aligned: tax id, address, contact. */
  lines?: string[];
};

const LOGO = 44;

/**
 * A zero-width space inside every run of 40 characters without a break: pdfkit measures an unbreakable
 * word again for each character it tries to fit, so a 100,000-letter "word" (a pasted hash, a held key)
 * kept the export busy for minutes on the thread that also runs the database. DejaVu draws U+200B as nothing.
 */
export function breakable(text: string): string {
  return text.replace(/[^\s\u200b-]{40}(?=[^\s\u200b-])/gu, '$&\u200b');
}

/** The issuer at the top of the first page: logo, name and subtitle on the left, details on the right, a rule below. */
export function header(doc: Doc, h: HeaderOptions) {
  const left = doc.page.margins.left;
  const width = contentWidth(doc);
  const top = doc.y;
  let textLeft = left;
  if (h.logo && isPngOrJpeg(h.logo)) {
    artifact(doc, () => doc.image(h.logo!, left, top, { fit: [LOGO, LOGO], align: 'center', valign: 'center' }));
    textLeft = left + LOGO + 12;
  }
  const rightWidth = Math.min(200, width / 2.5);
  const nameWidth = left + width - rightWidth - 16 - textLeft;
  tagged(doc, 'P', () => {
    doc.font(FONT.bold).fontSize(14).fillColor(COLORS.primary);
    doc.text(h.name, textLeft, top + (h.logo ? 4 : 0), { width: nameWidth });
  });
  if (h.subtitle)
    tagged(doc, 'P', () =>
      doc
        .font(FONT.regular)
        .fontSize(SIZES.small)
        .fillColor(COLORS.muted)
        .text(h.subtitle!, textLeft, doc.y + 1, { width: nameWidth }),
    );
  const leftBottom = Math.max(doc.y, h.logo ? top + LOGO : 0);
  let rightBottom = top;
  if (h.lines?.length) {
    tagged(doc, 'P', () => {
      doc.font(FONT.regular).fontSize(SIZES.small).fillColor(COLORS.muted);
      doc.text(h.lines!.join('\n'), left + width - rightWidth, top, { width: rightWidth, align: 'right', lineGap: 1.5 });
    });
    rightBottom = doc.y;
  }
  const y = Math.max(leftBottom, rightBottom) + 10;
  artifact(doc, () =>
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(1)
      .strokeColor(COLORS.primary)
      .stroke(),
  );
  doc.x = left;
  doc.y = y + 16;
  doc.fillColor(COLORS.text);
}

/** The document's title (H1) and an optional muted line under it. */
export function title(doc: Doc, text: string, subtitle?: string) {
  ensureSpace(doc, 60);
  tagged(doc, 'H1', () =>
    doc
      .font(FONT.bold)
      .fontSize(SIZES.title)
      .fillColor(COLORS.text)
      .text(breakable(text), { width: contentWidth(doc) }),
  );
  if (subtitle)
    tagged(doc, 'P', () =>
      doc
        .font(FONT.regular)
        .fontSize(SIZES.body)
        .fillColor(COLORS.muted)
        .text(subtitle, { width: contentWidth(doc) }),
    );
  doc.moveDown(0.6);
}

/**
 * A section heading, kept with what follows: H2 in the primary colour over a hairline, or H3
 * (a sub-heading such as a history entry's date and title) in bold text colour.
 */
export function heading(doc: Doc, text: string, level: 2 | 3 = 2) {
  const left = doc.page.margins.left;
  const width = contentWidth(doc);
  doc.moveDown(level === 2 ? 0.9 : 0.5);
  ensureSpace(doc, level === 2 ? 70 : 96);
  if (level === 3) {
    tagged(doc, 'H3', () =>
      doc
        .font(FONT.bold)
        .fontSize(SIZES.body + 0.5)
        .fillColor(COLORS.text)
        .text(text, left, doc.y, { width }),
    );
    doc.y += 1;
    return;
  }
  tagged(doc, 'H2', () => doc.font(FONT.bold).fontSize(SIZES.heading).fillColor(COLORS.primary).text(text, left, doc.y, { width }));
  const y = doc.y + 2;
  artifact(doc, () =>
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(0.5)
      .strokeColor(COLORS.rule)
      .stroke(),
  );
  doc.y = y + 7;
  doc.fillColor(COLORS.text);
}

export type ParagraphOptions = {
  bold?: boolean;
  muted?: boolean;
  size?: number;
  bullet?: boolean;
  gap?: number;
  align?: 'left' | 'right' | 'center' | 'justify';
};

/** A paragraph (with a bullet: a list item); it flows onto the next page when long. */
export function paragraph(doc: Doc, text: string, o: ParagraphOptions = {}) {
  const left = doc.page.margins.left;
  const width = contentWidth(doc);
  doc
    .font(o.bold ? FONT.bold : FONT.regular)
    .fontSize(o.size ?? SIZES.body)
    .fillColor(o.muted ? COLORS.muted : COLORS.text);
  // Two lines at least on this page; a bold line (a heading inside a text) keeps two lines of what follows too.
  ensureSpace(doc, doc.currentLineHeight(true) * (o.bold ? 4 : 2));
  const opts = { width: o.bullet ? width - 14 : width, lineGap: 2, paragraphGap: o.gap ?? 4, align: o.align ?? 'left' };
  text = breakable(text);
  if (!o.bullet) return tagged(doc, 'P', () => doc.text(text, left, doc.y, opts));
  const y = doc.y;
  artifact(doc, () => doc.text('•', left + 3, y, { lineBreak: false }));
  tagged(doc, 'P', () => doc.text(text, left + 14, y, opts));
  doc.x = left;
}

/** Label–value lines (Nombre: …); empty values are left out. Labels muted on the left, values beside them. */
export function keyValues(doc: Doc, rows: [string, string | null | undefined][], o: { labelWidth?: number } = {}) {
  const left = doc.page.margins.left;
  const labelWidth = o.labelWidth ?? 150;
  const valueWidth = contentWidth(doc) - labelWidth - 12;
  for (const [label, value] of rows) {
    if (!value) continue;
    const shown = breakable(value);
    doc.font(FONT.regular).fontSize(SIZES.body);
    const height = Math.max(
      doc.heightOfString(shown, { width: valueWidth, lineGap: 2 }),
      doc.font(FONT.regular).fontSize(SIZES.small).heightOfString(label, { width: labelWidth }),
    );
    ensureSpace(doc, height + 3);
    const y = doc.y;
    tagged(doc, 'P', () => {
      doc
        .font(FONT.regular)
        .fontSize(SIZES.small)
        .fillColor(COLORS.muted)
        .text(label, left, y + 1, { width: labelWidth });
      doc
        .font(FONT.regular)
        .fontSize(SIZES.body)
        .fillColor(COLORS.text)
        .text(shown, left + labelWidth + 12, y, { width: valueWidth, lineGap: 2 });
    });
    doc.x = left;
    doc.y = y + height + 3;
  }
}

export const isPngOrJpeg = (b: Buffer) =>
  (b[0] === 0x89 && b.subarray(1, 4).toString('latin1') === 'PNG') || (b[0] === 0xff && b[1] === 0xd8);
