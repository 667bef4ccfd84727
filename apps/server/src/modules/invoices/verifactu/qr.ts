import { formatAmount, toAeatDate } from './format';

/** The AEAT's QR validation service for invoices issued by a VERI*FACTU system (production). */
export const VERIFACTU_QR_BASE_URL = 'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR';
/** The same service in the AEAT's test environment. */
export const VERIFACTU_QR_TEST_BASE_URL = 'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR';

/** The mark printed on invoices of a VERI*FACTU system (Orden HAC/1177/2024). */
export const VERIFACTU_LEGEND = 'VERI*FACTU';
/** The sentence printed with the QR code of an invoice of a VERI*FACTU system. */
export const VERIFACTU_VERIFIABLE_SENTENCE = 'Factura verificable en la sede electrónica de la AEAT';
/** The text that precedes the QR code on the invoice. */
export const VERIFACTU_QR_HEADING = 'QR tributario:';

export type QrInvoice = {
  issuerTaxId: string;
  number: string;
  /** YYYY-MM-DD */
  issueDate: string;
  totalCents: number;
};

/**
 * The URL encoded in the invoice's QR code: `nif`, `numserie`, `fecha` (DD-MM-YYYY) and `importe`
 * (the invoice total, dot and two decimals, the same text as ImporteTotal in the record), each
 * percent-encoded as UTF-8 (`12345678&G33` → `12345678%26G33`, a space → `%20`).
 */
export function verifactuQrUrl(invoice: QrInvoice, base: string = VERIFACTU_QR_BASE_URL): string {
  const params: [string, string][] = [
    ['nif', invoice.issuerTaxId.trim()],
    ['numserie', invoice.number.trim()],
    ['fecha', toAeatDate(invoice.issueDate)],
    ['importe', formatAmount(invoice.totalCents)],
  ];
  const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  return `${base}?${query}`;
}
