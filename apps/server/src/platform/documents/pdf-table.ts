import { FONT } from './fonts';
import { artifact, bottomOf, COLORS, contentWidth, ensureSpace, openElement, SIZES } from './pdf-kit';

export type TableColumn = {
  header: string;
  /** Points, or a share of what the fixed columns leave ("*" = 1 share, "2*" = 2 shares). */
  width: number | `${number}*` | '*';
  align?: 'left' | 'right' | 'center';
};
export type TableOptions = { columns: TableColumn[]; rows: string[][]; zebra?: boolean };

const PAD_X = 6;
const PAD_Y = 4.5;
const LINE_GAP = 1.5;

/**
 * A table across the content width. Rows never split: one that does not fit opens a new page,
 * where the header row is drawn again. A row taller than a whole page is cut with an ellipsis.
 * Money and quantities: `align: 'right'`. Tagged as Table / TR / TH / TD.
 */
export function table(doc: PDFKit.PDFDocument, t: TableOptions) {
  const left = doc.page.margins.left;
  const widths = columnWidths(t.columns, contentWidth(doc));
  const xs = widths.map((_, i) => left + widths.slice(0, i).reduce((a, b) => a + b, 0));
  const total = widths.reduce((a, b) => a + b, 0);
  const headerCells = t.columns.map((c) => c.header);

  const measure = (cells: string[], font: string, size: number) =>
    Math.max(
      ...cells.map((c, i) =>
        doc
          .font(font)
          .fontSize(size)
          .heightOfString(c || ' ', { width: widths[i]! - 2 * PAD_X, lineGap: LINE_GAP }),
      ),
    ) +
    2 * PAD_Y;
  const headerHeight = measure(headerCells, FONT.bold, SIZES.small);

  const drawCells = (
    cells: string[],
    y: number,
    height: number,
    font: string,
    size: number,
    color: string,
    tag?: (draw: () => void) => void,
  ) => {
    cells.forEach((text, i) => {
      const draw = () =>
        doc
          .font(font)
          .fontSize(size)
          .fillColor(color)
          .text(text, xs[i]! + PAD_X, y + PAD_Y, {
            width: widths[i]! - 2 * PAD_X,
            height: height - 2 * PAD_Y,
            align: t.columns[i]!.align ?? 'left',
            lineGap: LINE_GAP,
            ellipsis: true,
          });
      if (tag) tag(draw);
      else draw();
    });
  };
  const drawHeader = (element?: PDFKit.PDFStructureElement) => {
    const y = doc.y;
    artifact(doc, () => {
      doc.rect(left, y, total, headerHeight).fillColor(COLORS.band).fill();
      doc
        .moveTo(left, y + headerHeight)
        .lineTo(left + total, y + headerHeight)
        .lineWidth(0.75)
        .strokeColor(COLORS.primary)
        .stroke();
      // Repeated headers are page furniture; only the first one is part of the table's structure.
      if (!element) drawCells(headerCells, y, headerHeight, FONT.bold, SIZES.small, COLORS.primary);
    });
    if (element) {
      const tr = openElement(doc, 'TR', element);
      drawCells(headerCells, y, headerHeight, FONT.bold, SIZES.small, COLORS.primary, (draw) => tr.add(doc.struct('TH', {}, draw)));
      tr.end();
    }
    doc.y = y + headerHeight;
  };

  ensureSpace(doc, headerHeight + measure(t.rows[0] ?? headerCells, FONT.regular, SIZES.body));
  const element = openElement(doc, 'Table');
  drawHeader(element);
  t.rows.forEach((row, index) => {
    const cells = t.columns.map((_, i) => row[i] ?? '');
    const pageRoom = bottomOf(doc) - doc.page.margins.top - headerHeight;
    const height = Math.min(measure(cells, FONT.regular, SIZES.body), pageRoom);
    if (doc.y + height > bottomOf(doc)) {
      doc.addPage();
      drawHeader();
    }
    const y = doc.y;
    artifact(doc, () => {
      if (t.zebra !== false && index % 2 === 1) doc.rect(left, y, total, height).fillColor(COLORS.zebra).fill();
      doc
        .moveTo(left, y + height)
        .lineTo(left + total, y + height)
        .lineWidth(0.4)
        .strokeColor(COLORS.rule)
        .stroke();
    });
    const tr = openElement(doc, 'TR', element);
    drawCells(cells, y, height, FONT.regular, SIZES.body, COLORS.text, (draw) => tr.add(doc.struct('TD', {}, draw)));
    tr.end();
    doc.y = y + height;
  });
  element.end();
  doc.x = left;
  doc.y += 8;
  doc.fillColor(COLORS.text);
}

/** Fixed widths first; the rest is shared by the "*" columns (or spread over all when there are none). */
export function columnWidths(columns: TableColumn[], available: number): number[] {
  const shareOf = (w: TableColumn['width']) => (typeof w === 'number' ? 0 : w === '*' ? 1 : Number(w.slice(0, -1)) || 1);
  const fixed = columns.reduce((a, c) => a + (typeof c.width === 'number' ? c.width : 0), 0);
  const shares = columns.reduce((a, c) => a + shareOf(c.width), 0);
  if (!shares) return columns.map((c) => ((c.width as number) * available) / fixed);
  const unit = Math.max(0, available - fixed) / shares;
  return columns.map((c) => (typeof c.width === 'number' ? c.width : shareOf(c.width) * unit));
}
