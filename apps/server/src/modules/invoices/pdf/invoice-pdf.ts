import type { Invoice } from '@divan/core';
import { FONT } from '../../../platform/documents/fonts';
import { header, heading, keyValues, paragraph } from '../../../platform/documents/pdf-blocks';
import { contentWidth, createDocument, renderToBuffer, setFooter, SIZES } from '../../../platform/documents/pdf-kit';
import { table } from '../../../platform/documents/pdf-table';
import { partiesBlock, titleBlock, totalsBlock, watermarkPages } from './invoice-pdf-blocks';
import {
  documentTitle,
  dmy,
  dmyOfInstant,
  euros,
  paymentStatusLabel,
  paymentTypeLabel,
  percent,
  quantity,
  vatLabel,
} from './invoice-pdf-format';

export type InvoicePdfOptions = {
  /** The workspace's square logo (PNG or JPEG bytes); other formats are left out. */
  logo?: Buffer | null;
  /** The workspace the invoice belongs to, shown under the seller's name when it differs. */
  workspaceName?: string;
};

/** Height the kit's page footer gives its free text before cutting it with an ellipsis. */
const FOOTER_HEIGHT = 30;

/**
 * An invoice as a printable A4 PDF in Spanish, on the platform document kit (embedded DejaVu Sans,
 * PDF/A-2b, tagged): title and number, seller and buyer, the lines (the header row repeated on every
 * page), the VAT breakdown, the totals, the legal legends, the payment and, once issued with a
 * VERI*FACTU record, the tax QR code with its legends. A draft is watermarked «BORRADOR» and has no QR.
 * Every page ends with the invoice's footer text and «Página X de Y».
 */
export async function renderInvoicePdf(invoice: Invoice, opts: InvoicePdfOptions = {}): Promise<Buffer> {
  const draft = invoice.status === 'draft';
  const kind = documentTitle(invoice);
  const sellerName =
    invoice.seller?.fullName?.trim() || (invoice.sellerType === 'workspace' ? opts.workspaceName : undefined) || invoice.therapist.name;
  const footer = invoice.footer?.trim() ?? '';
  const doc = await createDocument({
    title: `${kind} ${invoice.number ?? '(borrador)'}`,
    author: sellerName,
    subject: kind,
    keywords: 'factura',
    createdAt: new Date(invoice.updatedAt),
    footer,
  });

  const subtitle = opts.workspaceName && opts.workspaceName !== sellerName ? opts.workspaceName : undefined;
  header(doc, { name: sellerName, subtitle, logo: opts.logo ?? null });
  // A draft has no QR, whatever it carries: only an issued invoice has a registration record.
  await titleBlock(doc, draft ? { ...invoice, verifactu: null } : invoice);
  partiesBlock(doc, invoice, sellerName);

  table(doc, {
    columns: [
      { header: 'Concepto', width: '*' },
      { header: 'Cantidad', width: 55, align: 'right' },
      { header: 'Precio', width: 66, align: 'right' },
      { header: 'Base imponible', width: 66, align: 'right' },
      { header: 'IVA %', width: 46, align: 'right' },
      { header: 'IRPF %', width: 46, align: 'right' },
      { header: 'Importe', width: 66, align: 'right' },
    ],
    rows: invoice.lines.map((l) => [
      l.description,
      quantity(l.quantity),
      euros(l.unitPriceCents),
      euros(l.baseCents),
      l.exemption === 'N2' ? 'No sujeta' : l.exemption ? 'Exenta' : percent(l.vatRate),
      l.withholdingRate ? percent(l.withholdingRate) : '—',
      euros(l.totalCents),
    ]),
  });
  if (!invoice.lines.length) paragraph(doc, 'Esta factura no tiene conceptos.', { muted: true });

  if (invoice.vatBreakdown.length) {
    heading(doc, 'Desglose de IVA');
    table(doc, {
      columns: [
        { header: 'Tipo', width: '*' },
        { header: 'Base imponible', width: 66, align: 'right' },
        { header: 'Cuota de IVA', width: 120, align: 'right' },
      ],
      rows: invoice.vatBreakdown.map((b) => [vatLabel(b), euros(b.baseCents), b.exemption ? '—' : euros(b.vatCents)]),
      zebra: false,
    });
  }
  totalsBlock(doc, invoice);

  for (const legend of invoice.legends) paragraph(doc, legend, { size: SIZES.small, muted: true });

  const paidOn = invoice.chargeDate ? dmy(invoice.chargeDate) : invoice.paidAt ? dmyOfInstant(invoice.paidAt) : null;
  heading(doc, 'Pago');
  keyValues(doc, [
    ['Estado', paymentStatusLabel(invoice.paymentStatus)],
    ['Forma de pago', invoice.paymentType ? paymentTypeLabel(invoice.paymentType) : null],
    [invoice.paymentStatus === 'paid' ? 'Fecha de cobro' : 'Fecha de cargo', paidOn],
  ]);

  // The page footer keeps about three lines: a longer footer text is printed whole after the payment instead.
  if (footer && tooLongForPageFooter(doc, footer)) {
    setFooter(doc, '');
    doc.moveDown(0.8);
    paragraph(doc, footer, { size: SIZES.small, muted: true });
  }
  // Voided (its VERI*FACTU cancellation record written): kept with its number, stamped so nobody pays it.
  if (invoice.voided) {
    heading(doc, 'Anulación');
    keyValues(doc, [
      ['Anulada el', dmyOfInstant(invoice.voided.at)],
      ['Motivo', invoice.voided.reason],
    ]);
  }
  if (draft) watermarkPages(doc);
  else if (invoice.voided) watermarkPages(doc, 'ANULADA');
  return renderToBuffer(doc);
}

function tooLongForPageFooter(doc: PDFKit.PDFDocument, footer: string): boolean {
  const labelWidth = 80;
  const width = contentWidth(doc) - labelWidth - 24;
  const height = doc.font(FONT.regular).fontSize(SIZES.footer).heightOfString(footer, { width, lineGap: 1 });
  doc.font(FONT.regular).fontSize(SIZES.body);
  return height > FOOTER_HEIGHT;
}
