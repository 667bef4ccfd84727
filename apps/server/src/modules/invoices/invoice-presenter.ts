import { invoiceLegends, type Invoice, type VatExemption } from '@divan/core';
import { verifactuQrUrl } from './verifactu/qr';
import type { InvoiceLineRow, InvoiceRow, VerifactuRecordRow } from './invoices.tables';

export type InvoiceNames = { therapistName: string; patientName: string | null; rectifiedNumber?: string | null };
export type RectifiedBy = Invoice['rectifiedBy'];

export const lineInput = (
  l: Pick<InvoiceLineRow, 'description' | 'unitPrice' | 'quantityHundredths' | 'vatRate' | 'withholdingRate' | 'exemption'>,
) => ({
  description: l.description,
  unitPriceCents: l.unitPrice,
  quantity: l.quantityHundredths / 100,
  vatRate: l.vatRate,
  withholdingRate: l.withholdingRate,
  exemption: l.exemption ?? null,
});

/** An invoice as the API answers it; the VERI*FACTU QR once issued (`qrBase`: the AEAT's validation URL); the rectifying invoices that correct it. */
export function presentInvoice(
  row: InvoiceRow,
  lines: InvoiceLineRow[],
  names: InvoiceNames,
  record: VerifactuRecordRow | undefined,
  qrBase: string,
  rectifiedBy: RectifiedBy = [],
): Invoice {
  const breakdown = new Map<string, { vatRate: number; exemption: VatExemption | null; baseCents: number; vatCents: number }>();
  for (const l of lines) {
    const key = `${l.vatRate}|${l.exemption ?? ''}`;
    const b = breakdown.get(key) ?? { vatRate: l.vatRate, exemption: l.exemption ?? null, baseCents: 0, vatCents: 0 };
    b.baseCents += l.base;
    b.vatCents += l.vat;
    breakdown.set(key, b);
  }
  return {
    ...presentSummary(row, names),
    lines: lines.map((l) => ({
      id: l.id,
      position: l.position,
      description: l.description,
      itemKind: l.itemKind,
      unitPriceCents: l.unitPrice,
      quantity: l.quantityHundredths / 100,
      vatRate: l.vatRate,
      withholdingRate: l.withholdingRate,
      exemption: l.exemption ?? null,
      baseCents: l.base,
      vatCents: l.vat,
      withholdingCents: l.withholding,
      totalCents: l.total,
      sessionId: l.sessionId,
    })),
    vatBreakdown: [...breakdown.values()].sort((a, b) => a.vatRate - b.vatRate || (a.exemption ?? '').localeCompare(b.exemption ?? '')),
    legends: invoiceLegends(lines.map(lineInput)),
    rectifiedBy,
    verifactu:
      record && row.seller?.taxId
        ? {
            fingerprint: record.fingerprint,
            qrUrl: verifactuQrUrl(
              { issuerTaxId: record.issuerTaxId, number: record.invoiceNumber, issueDate: record.issueDate, totalCents: record.total },
              qrBase,
            ),
          }
        : null,
  };
}

/** What the list shows of an invoice (no lines). */
export function presentSummary(
  row: InvoiceRow,
  names: InvoiceNames,
): Omit<Invoice, 'lines' | 'vatBreakdown' | 'legends' | 'verifactu' | 'rectifiedBy'> & { verifactu: null } {
  return {
    id: row.id,
    status: row.status,
    kind: row.kind,
    number: row.number,
    series: row.series,
    issueDate: row.issueDate,
    sellerType: row.sellerType,
    seller: row.seller ?? null,
    buyer: row.buyer ?? null,
    therapist: { id: row.ownerId, name: names.therapistName },
    patient: row.patientId ? { id: row.patientId, name: names.patientName ?? '' } : null,
    subtotalCents: row.subtotal,
    vatCents: row.vat,
    withholdingCents: row.withholding,
    totalCents: row.total,
    paymentStatus: row.paymentStatus,
    paymentType: row.paymentType,
    paidAt: row.paidAt?.toISOString() ?? null,
    chargeDate: row.chargeDate,
    footer: row.footer,
    rectifies:
      row.rectifiesId && row.rectificationMethod
        ? {
            id: row.rectifiesId,
            number: names.rectifiedNumber ?? null,
            method: row.rectificationMethod,
            reason: row.rectificationReason ?? '',
          }
        : null,
    voided: row.voidedAt ? { at: row.voidedAt.toISOString(), reason: row.voidReason ?? '' } : null,
    verifactu: null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
