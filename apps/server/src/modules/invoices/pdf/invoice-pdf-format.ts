// How an invoice's values read in Spanish on paper: DD/MM/YYYY, "1.234,56 €", "21 %", "1,5".
import {
  type VatExemption,
  DEFAULT_TIME_ZONE,
  formatCents,
  formatDayEs,
  PAYMENT_STATUS,
  PAYMENT_TYPE,
  RECTIFICATION_METHOD,
  toLocal,
  type Invoice,
} from '@divan/core';

export const euros = (cents: number) => formatCents(cents);

/** DD/MM/YYYY from an ISO day (YYYY-MM-DD). */
export const dmy = (isoDay: string) => formatDayEs(isoDay.slice(0, 10));

/** DD/MM/YYYY of an instant, as the day it was in Madrid. */
export const dmyOfInstant = (iso: string) => formatDayEs(toLocal(new Date(iso), DEFAULT_TIME_ZONE).day);

const quantityFormat = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 2, useGrouping: 'always' });
export const quantity = (q: number) => quantityFormat.format(q);

/** "21 %" (a plain space, as Spanish style writes it). */
export const percent = (rate: number) => `${rate} %`;

/** A VAT rate as a breakdown row names it: "Exenta (E1)" or "21 %". */
export const vatLabel = (row: { vatRate: number; exemption: VatExemption | null }) =>
  row.exemption === 'N2' ? 'No sujeta' : row.exemption ? `Exenta (${row.exemption})` : percent(row.vatRate);

export const documentTitle = (invoice: Invoice) => (invoice.kind === 'rectifying' ? 'Factura rectificativa' : 'Factura');

/** "por diferencias" / "por sustitución". */
export const methodLabel = (method: keyof typeof RECTIFICATION_METHOD.labels) => RECTIFICATION_METHOD.labels[method].toLowerCase();

export const paymentStatusLabel = (s: Invoice['paymentStatus']) => PAYMENT_STATUS.labels[s] ?? s;
export const paymentTypeLabel = (t: NonNullable<Invoice['paymentType']>) => PAYMENT_TYPE.labels[t] ?? t;

/** The download's name: `factura-2025-0001.pdf`, `factura-borrador.pdf`; only safe characters. */
export function invoiceFilename(invoice: Pick<Invoice, 'number'>): string {
  const part = invoice.number ? invoice.number.replace(/[^0-9A-Za-z_-]+/g, '_') : 'borrador';
  return `factura-${part}.pdf`;
}

/** A party's address as printed lines: street, second line, "28013 Madrid", country. */
export function addressLines(p: {
  line1?: string | null;
  line2?: string | null;
  zipCode?: string | null;
  city?: string | null;
  country?: string | null;
}): string[] {
  return [p.line1, p.line2, [p.zipCode, p.city].filter(Boolean).join(' '), p.country].map((l) => (l ?? '').trim()).filter(Boolean);
}
