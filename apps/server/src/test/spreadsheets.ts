import ExcelJS from 'exceljs';
import type { TestApp } from './test-app';
import { json } from './test-app';
import { multipart } from './images';

/** A real .xlsx with these rows (the first is the header), as a spreadsheet app saves it. */
export async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Pacientes');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
/** A valid DNI for a number (the control letter computed). */
export const dni = (n: number) => `${String(n).padStart(8, '0')}${LETTERS[n % 23]}`;

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Upload, commit with the suggested (or given) mapping, and poll until the import settles. */
export async function importPatients(t: TestApp, workspaceId: string, token: string, data: Buffer, mapping?: Record<string, number>) {
  const base = `/api/v1/workspaces/${workspaceId}/patient-imports`;
  const { payload, headers } = multipart('file', 'pacientes.xlsx', XLSX_TYPE, data);
  const up = await t.app.inject({ method: 'POST', url: base, payload, headers: { ...headers, authorization: `Bearer ${token}` } });
  if (up.statusCode !== 201) throw new Error(`upload: ${up.body}`);
  const upload = json<{
    importId: string;
    suggestedMapping: Record<string, number>;
    columns: string[];
    sampleRows: string[][];
    totalRows: number;
  }>(up);
  const commit = await t.post(`${base}/${upload.importId}/commit`, { mapping: mapping ?? upload.suggestedMapping }, { token });
  if (commit.statusCode !== 202) throw new Error(`commit: ${commit.body}`);
  const seen = new Set<string>();
  for (;;) {
    const s = json<{
      status: string;
      processed: number;
      total: number;
      created: number;
      errors: { row: number; reason: string }[];
      message?: string;
    }>(await t.get(`${base}/${upload.importId}`, { token }));
    seen.add(s.status);
    if (s.status === 'done' || s.status === 'failed') return { upload, result: s, statusesSeen: seen };
    await new Promise((r) => setTimeout(r, 20));
  }
}
