import {
  DEFAULT_TIME_ZONE,
  PAYMENT_STATUS,
  centsToDecimalText,
  formatDayEs,
  PAYMENT_TYPE,
  toLocal,
  type InvoiceListQuery,
} from '@divan/core';
import type { Caller } from '../../platform/auth/caller';
import { invoicesRepository } from './invoices.repository';
import { invoiceScope } from './invoice-access';
import type { Db } from '../../platform/db/database';
import type { InvoiceRow } from './invoices.tables';

/** The most rows one export holds (a year of a large clinic). */
export const INVOICE_EXPORT_MAX = 20_000;

const HEAD = [
  'Número',
  'Fecha',
  'Tipo',
  'Estado',
  'Emisor',
  'NIF emisor',
  'Destinatario',
  'NIF destinatario',
  'Base imponible',
  'IVA',
  'Retención IRPF',
  'Total',
  'Pago',
  'Forma de pago',
  'Fecha de pago',
  'Rectifica a',
] as const;
const dmy = (iso: string | null) => (iso ? formatDayEs(iso.slice(0, 10)) : '');
const cell = (v: string) => (/[";\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

type Line = { row: InvoiceRow; rectified: string };

/** The invoice list for the accountant, with the list's filters: issued invoices only (drafts are not invoices yet). */
export class InvoiceExport {
  constructor(private readonly db: Db) {}

  async export(c: Caller, q: InvoiceListQuery, format: 'csv' | 'xlsx'): Promise<{ body: Buffer; type: string; ext: string }> {
    const { rows } = await invoicesRepository(this.db).list(c.member.workspaceId, invoiceScope(c), {
      ...q,
      status: 'issued',
      page: 1,
      pageSize: INVOICE_EXPORT_MAX,
    });
    return fileOf(rows, format);
  }
}

async function fileOf(rows: InvoiceRow[], format: 'csv' | 'xlsx'): Promise<{ body: Buffer; type: string; ext: string }> {
  const numbers = new Map(rows.map((r) => [r.id, r.number ?? '']));
  const lines: Line[] = rows.reverse().map((row) => ({ row, rectified: row.rectifiesId ? (numbers.get(row.rectifiesId) ?? '') : '' }));
  if (format === 'csv') {
    const text = [
      HEAD.join(';'),
      ...lines.map((l) =>
        values(l, true)
          .map((v) => cell(String(v)))
          .join(';'),
      ),
    ].join('\r\n');
    return { body: Buffer.from(`\uFEFF${text}\r\n`), type: 'text/csv; charset=utf-8', ext: 'csv' };
  }
  // Loaded at the first export: ~140 ms and ~28 MB a server that never exports does not pay at start.
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Facturas', { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.addRow([...HEAD]).font = { bold: true };
  for (const l of lines) ws.addRow(values(l, false));
  for (const col of [9, 10, 11, 12]) ws.getColumn(col).numFmt = '#,##0.00 €';
  ws.columns.forEach((col, i) => (col.width = [12, 11, 12, 9, 28, 12, 28, 14, 14, 12, 14, 14, 10, 14, 12, 12][i]));
  return {
    body: Buffer.from(await wb.xlsx.writeBuffer()),
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ext: 'xlsx',
  };
}

function values({ row: r, rectified }: Line, text: boolean): (string | number)[] {
  const money = (cents: number) => (text ? centsToDecimalText(cents) : cents / 100);
  return [
    r.number ?? '',
    dmy(r.issueDate),
    r.kind === 'rectifying' ? 'Rectificativa' : 'Ordinaria',
    'Emitida',
    r.seller?.fullName ?? '',
    r.seller?.taxId ?? '',
    r.buyer?.fullName ?? '',
    r.buyer?.taxId ?? '',
    money(r.subtotal),
    money(r.vat),
    money(r.withholding),
    money(r.total),
    PAYMENT_STATUS.labels[r.paymentStatus],
    r.paymentType ? PAYMENT_TYPE.labels[r.paymentType] : '',
    r.paidAt ? dmy(toLocal(r.paidAt, DEFAULT_TIME_ZONE).day) : '',
    rectified,
  ];
}
