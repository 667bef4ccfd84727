// The mail that carries an issued invoice's PDF to its buyer.
import type { Invoice } from '@divan/core';
import { renderMail, type Mail, type MailBrand } from '../../../platform/mail/layout';
export type { MailAttachment } from '../../../platform/mail/layout';
import { dmy, documentTitle, euros } from './invoice-pdf-format';

export type MailWithAttachments = Mail & { attachments: NonNullable<Mail['attachments']> };

/**
 * «Factura 2025-0001 de Teresa Terapeuta», a short note in Spanish and the PDF attached. The
 * attachment's fields are nodemailer's own (`filename`, `contentType`, `content`, `encoding`).
 */
export function invoiceMail(p: {
  to: string;
  invoice: Invoice;
  sellerName: string;
  brand: MailBrand;
  pdf: Buffer;
  filename: string;
}): MailWithAttachments {
  const { invoice } = p;
  const kind = documentTitle(invoice).toLowerCase();
  const number = invoice.number ?? '';
  const date = invoice.issueDate ? ` del ${dmy(invoice.issueDate)}` : '';
  const mail = renderMail({
    to: p.to,
    subject: `${documentTitle(invoice)} ${number} de ${p.sellerName}`,
    greeting: invoice.buyer?.fullName ? `Hola, ${invoice.buyer.fullName}:` : 'Hola:',
    blocks: [
      { kind: 'p', text: `Te enviamos la ${kind} ${number}${date}, por un total de ${euros(invoice.totalCents)}.` },
      { kind: 'p', text: `La encontrarás adjunta en PDF (${p.filename}).` },
      { kind: 'note', text: `Si tienes alguna duda sobre esta factura, ponte en contacto con ${p.sellerName}.` },
    ],
    brand: p.brand,
  });
  return {
    ...mail,
    attachments: [{ filename: p.filename, contentType: 'application/pdf', content: p.pdf.toString('base64'), encoding: 'base64' }],
  };
}
