import type ExcelJS from 'exceljs';
import { displayDayEs, IMPORT_MAX_ROWS, patientErrorMessages } from '@divan/core';
import { AppError } from '../../platform/errors';
import { OfficeFileError, officeRefusal, readXlsxRows, type RawRow } from '../../platform/documents/office-files';

/** A cell as the import reads it: dates stay dates and numbers stay numbers until a field needs them. */
export type Cell = string | number | boolean | Date | null;
/** One data row and its number in the sheet (what the user sees in Excel). */
export type SheetRow = { row: number; cells: Cell[] };
export type Sheet = { columns: string[]; rows: SheetRow[] };

const DAY_MS = 86_400_000;

/**
 * The first sheet with data: its first non-empty row is the header, every later non-empty row is
 * data. A file that is not a readable .xlsx is `invalid_import_file`.
 */
export async function readSheet(data: Buffer): Promise<Sheet> {
  if (data.subarray(0, 4).toString('latin1') !== 'PK\u0003\u0004') throw new AppError('invalid_import_file');
  let raw: RawRow[];
  try {
    // Size checked from the zip's directory, then unpacked and streamed in a worker thread, stopping past the cap.
    raw = await readXlsxRows(data, IMPORT_MAX_ROWS + 1);
  } catch (err) {
    throw refusal(err);
  }
  if (!raw.length) throw new AppError('invalid_import_file', undefined, patientErrorMessages.importEmpty);

  let header: Cell[] | undefined;
  const rows: SheetRow[] = [];
  let width = 0;
  for (const { number, values } of raw) {
    const cells: Cell[] = values.map((v) => cellOf(v as ExcelJS.CellValue));
    while (cells.length && isBlank(cells[cells.length - 1]!)) cells.pop();
    if (!cells.length) continue;
    if (!header) header = cells;
    else rows.push({ row: number, cells });
    width = Math.max(width, cells.length);
  }
  if (!header) throw new AppError('invalid_import_file', undefined, patientErrorMessages.importEmpty);
  const columns = Array.from({ length: width }, (_, i) => {
    const h = header![i];
    return h !== undefined && !isBlank(h) ? cellText(h) : `Columna ${columnLetter(i)}`;
  });
  return { columns, rows };
}

const TOO_MANY_ROWS = `El archivo tiene más de ${IMPORT_MAX_ROWS.toLocaleString('es-ES')} filas. Divídelo en varios archivos.`;

function refusal(err: unknown): AppError {
  if (err instanceof OfficeFileError && err.reason === 'too_many_rows')
    return new AppError('invalid_import_file', undefined, TOO_MANY_ROWS);
  return officeRefusal(err, 'invalid_import_file');
}

/** How a cell is shown to the user while mapping: dates as DD/MM/YYYY, numbers without exponent. */
export function cellText(c: Cell | undefined): string {
  if (c === null || c === undefined) return '';
  if (c instanceof Date) return displayDayEs(c.toISOString());
  if (typeof c === 'number') return Number.isInteger(c) ? c.toFixed(0) : String(c);
  if (typeof c === 'boolean') return c ? 'Sí' : 'No';
  return c.trim();
}

export const isBlank = (c: Cell) => c === null || (typeof c === 'string' && !c.trim());

function cellOf(v: ExcelJS.CellValue): Cell {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return roundToDay(v);
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if ('richText' in v) return v.richText.map((r) => r.text).join('');
  if ('hyperlink' in v) return typeof v.text === 'string' ? v.text : cellOf(v.text as ExcelJS.CellValue);
  if ('formula' in v || 'sharedFormula' in v) return v.result === undefined ? null : cellOf(v.result as ExcelJS.CellValue);
  return null; // error values (#N/A…)
}

/** Spreadsheet dates are day counts: floating error can land a date a millisecond before midnight. */
function roundToDay(d: Date): Date {
  const rest = ((d.getTime() % DAY_MS) + DAY_MS) % DAY_MS;
  return rest > DAY_MS - 1000 ? new Date(d.getTime() + DAY_MS - rest) : d;
}

function columnLetter(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** Rows as JSON, dates kept as dates: what is kept (encrypted by the caller) between upload and import. */
export function encodeRows(rows: SheetRow[]): string {
  return JSON.stringify(rows.map((r) => ({ row: r.row, cells: r.cells.map((c) => (c instanceof Date ? { d: c.toISOString() } : c)) })));
}

export function decodeRows(json: string): SheetRow[] {
  const rows = JSON.parse(json) as { row: number; cells: (Cell | { d: string })[] }[];
  return rows.map((r) => ({
    row: r.row,
    cells: r.cells.map((c) => (c !== null && typeof c === 'object' && 'd' in c ? new Date(c.d) : (c as Cell))),
  }));
}
