// The invoice's own blocks on top of the platform document kit: the title with the VERI*FACTU QR
// beside it, the seller and buyer side by side, the totals box and the draft watermark.
import type { Invoice } from '@divan/core';
import { FONT } from '../../../platform/documents/fonts';
import { artifact, COLORS, contentWidth, ensureSpace, SIZES, tagged } from '../../../platform/documents/pdf-kit';
import { breakable } from '../../../platform/documents/pdf-blocks';
import { drawQr } from '../../../platform/documents/qr';
import { VERIFACTU_LEGEND, VERIFACTU_QR_HEADING, VERIFACTU_VERIFIABLE_SENTENCE } from '../verifactu/qr';
import { addressLines, dmy, documentTitle, euros, methodLabel } from './invoice-pdf-format';

type Doc = PDFKit.PDFDocument;

/** The QR's printed side, quiet zone included: the code itself is about 31 mm (the order asks 30–40 mm). */
export const QR_SIZE = 105;
const QR_BOX = 140;

/**
 * «Factura» / «Factura rectificativa», its number and issue date (and, when rectifying, which
 * invoice, how and why) on the left; on the right, when the invoice has a VERI*FACTU record,
 * «QR tributario:», the QR code, «VERI*FACTU» and the sentence that it can be verified at the AEAT.
 */
export async function titleBlock(doc: Doc, invoice: Invoice) {
  const left = doc.page.margins.left;
  const width = contentWidth(doc);
  const top = doc.y;
  const qr = invoice.verifactu;
  const textWidth = qr ? width - QR_BOX - 16 : width;

  tagged(doc, 'H1', () =>
    doc
      .font(FONT.bold)
      .fontSize(SIZES.title + 3)
      .fillColor(COLORS.text)
      .text(documentTitle(invoice), left, top, { width: textWidth }),
  );
  doc.moveDown(0.3);
  const rows: [string, string][] = [
    ['Número', invoice.number ?? 'Sin número (borrador)'],
    ['Fecha de emisión', invoice.issueDate ? dmy(invoice.issueDate) : 'Pendiente de emisión'],
  ];
  if (invoice.rectifies) {
    rows.push(['Factura rectificada', invoice.rectifies.number ?? '—']);
    rows.push(['Método', `Rectificación ${methodLabel(invoice.rectifies.method)}`]);
    rows.push(['Motivo', invoice.rectifies.reason]);
  }
  for (const [label, value] of rows) {
    tagged(doc, 'P', () => {
      const y = doc.y;
      doc
        .font(FONT.regular)
        .fontSize(SIZES.small)
        .fillColor(COLORS.muted)
        .text(`${label}:`, left, y + 1, { width: 100 });
      doc
        .font(label === 'Número' ? FONT.bold : FONT.regular)
        .fontSize(SIZES.body + 0.5)
        .fillColor(COLORS.text)
        .text(breakable(value), left + 104, y, { width: textWidth - 104, lineGap: 1.5 });
    });
    doc.y += 2;
  }
  let bottom = doc.y;

  if (qr) {
    const x = left + width - QR_BOX;
    doc.font(FONT.bold).fontSize(SIZES.small).fillColor(COLORS.text);
    tagged(doc, 'P', () => doc.text(VERIFACTU_QR_HEADING, x, top, { width: QR_BOX, align: 'center' }));
    const qrTop = doc.y + 2;
    await drawQr(doc, qr.qrUrl, x + (QR_BOX - QR_SIZE) / 2, qrTop, QR_SIZE, `Código QR tributario: ${qr.qrUrl}`);
    doc.y = qrTop + QR_SIZE + 2;
    tagged(doc, 'P', () =>
      doc.font(FONT.bold).fontSize(SIZES.body).fillColor(COLORS.text).text(VERIFACTU_LEGEND, x, doc.y, { width: QR_BOX, align: 'center' }),
    );
    tagged(doc, 'P', () =>
      doc
        .font(FONT.regular)
        .fontSize(SIZES.small - 1)
        .fillColor(COLORS.muted)
        .text(VERIFACTU_VERIFIABLE_SENTENCE, x, doc.y + 1, { width: QR_BOX, align: 'center' }),
    );
    bottom = Math.max(bottom, doc.y);
  }
  doc.x = left;
  doc.y = bottom + 14;
}

/** «Emisor» and «Cliente» side by side: name, NIF and address of each. */
export function partiesBlock(doc: Doc, invoice: Invoice, sellerName: string) {
  const left = doc.page.margins.left;
  const width = contentWidth(doc);
  const column = (width - 24) / 2;
  const seller = invoice.seller;
  const buyer = invoice.buyer;
  const sellerLines = seller
    ? [seller.taxId ? `NIF: ${seller.taxId}` : '', ...addressLines(seller)].filter(Boolean)
    : ['Los datos fiscales se completan al emitir la factura.'];
  const buyerLines = buyer ? [buyer.taxId ? `NIF: ${buyer.taxId}` : '', ...addressLines(buyer)].filter(Boolean) : [];
  const parties: [string, string, string[]][] = [
    ['Emisor', sellerName, sellerLines],
    ['Cliente', buyer?.fullName || 'Sin destinatario', buyerLines],
  ];
  ensureSpace(doc, 110);
  const top = doc.y;
  let bottom = top;
  parties.forEach(([label, name, lines], i) => {
    const x = left + i * (column + 24);
    tagged(doc, 'H2', () =>
      doc
        .font(FONT.bold)
        .fontSize(SIZES.small)
        .fillColor(COLORS.primary)
        .text(label.toUpperCase(), x, top, { width: column, characterSpacing: 0.5 }),
    );
    const ruleY = doc.y + 1;
    artifact(doc, () =>
      doc
        .moveTo(x, ruleY)
        .lineTo(x + column, ruleY)
        .lineWidth(0.5)
        .strokeColor(COLORS.rule)
        .stroke(),
    );
    tagged(doc, 'P', () =>
      doc
        .font(FONT.bold)
        .fontSize(SIZES.body + 0.5)
        .fillColor(COLORS.text)
        .text(breakable(name), x, ruleY + 5, { width: column }),
    );
    if (lines.length)
      tagged(doc, 'P', () =>
        doc
          .font(FONT.regular)
          .fontSize(SIZES.body)
          .fillColor(COLORS.text)
          .text(breakable(lines.join('\n')), x, doc.y + 2, { width: column, lineGap: 1.5 }),
      );
    bottom = Math.max(bottom, doc.y);
  });
  doc.x = left;
  doc.y = bottom + 16;
}

/** Base imponible, IVA, retención IRPF (only when there is any) and the total, right-aligned; never split across pages. */
export function totalsBlock(doc: Doc, invoice: Invoice) {
  const left = doc.page.margins.left;
  const width = contentWidth(doc);
  const boxWidth = 250;
  const x = left + width - boxWidth;
  const rows: [string, string, boolean][] = [
    ['Base imponible', euros(invoice.subtotalCents), false],
    ['IVA', euros(invoice.vatCents), false],
  ];
  const withholdingRates = [...new Set(invoice.lines.filter((l) => l.withholdingCents !== 0).map((l) => l.withholdingRate))];
  if (invoice.withholdingCents !== 0) {
    const rate = withholdingRates.length === 1 ? ` (${withholdingRates[0]} %)` : '';
    rows.push([`Retención IRPF${rate}`, euros(-invoice.withholdingCents), false]);
  }
  rows.push(['Total', euros(invoice.totalCents), true]);
  ensureSpace(doc, rows.length * 20 + 16);
  let y = doc.y + 4;
  for (const [label, value, strong] of rows) {
    if (strong) {
      artifact(doc, () =>
        doc
          .rect(x, y - 3, boxWidth, 24)
          .fillColor(COLORS.band)
          .fill(),
      );
      y += 3;
    }
    tagged(doc, 'P', () => {
      doc
        .font(strong ? FONT.bold : FONT.regular)
        .fontSize(strong ? SIZES.heading : SIZES.body)
        .fillColor(strong ? COLORS.primary : COLORS.text);
      doc.text(label, x + 8, y, { width: boxWidth / 2 - 8, lineBreak: false });
      doc.text(value, x + boxWidth / 2, y, { width: boxWidth / 2 - 8, align: 'right', lineBreak: false });
    });
    y += strong ? 22 : 17;
  }
  doc.x = left;
  doc.y = y + 8;
  doc.fillColor(COLORS.text);
}

/**
 * «BORRADOR» across the middle of every page, large and faint: a draft is not an invoice. Level, not
 * diagonal, so text extraction (search, screen readers, pdftotext) reads it as one word.
 */
export function watermarkPages(doc: Doc, text = 'BORRADOR') {
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const { width, height } = doc.page;
    artifact(doc, () => {
      doc.save();
      // As large as fits between the margins, at most 80 points.
      const size = Math.min(80, (contentWidth(doc) * 80) / doc.font(FONT.bold).fontSize(80).widthOfString(text));
      doc.font(FONT.bold).fontSize(size).fillColor('#b3261e').fillOpacity(0.1);
      const textWidth = doc.widthOfString(text);
      doc.text(text, (width - textWidth) / 2, height / 2 - size / 2, { lineBreak: false });
      doc.restore();
    });
  }
}
