import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_MAX_ROWS } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { multipart } from '../../test/images';
import { XLSX_TYPE, xlsx } from '../../test/spreadsheets';
import { withHugePart, zip } from '../../test/zips';
import { convertDocxToHtml, OfficeFileError, readXlsxRows } from './office-files';
import { inspectZip } from './zip-guard';
import { readFixture } from '../../../../../fixtures';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const MB = 1024 * 1024;

let sheet: Buffer;
let bomb: Buffer;
beforeAll(async () => {
  sheet = await xlsx([
    ['Nombre', 'Email'],
    ['Ana', 'ana@example.com'],
  ]);
  // 200 MB of zeros as the sheet: a few hundred kilobytes on the wire.
  bomb = await withHugePart(sheet, 'xl/worksheets/sheet1.xml', 200 * MB);
}, 60_000);

describe('zip guard: what an archive unpacks to, read from its directory', () => {
  it('passes real office files and refuses a bomb, a suspicious ratio and what is not a zip', async () => {
    expect(inspectZip(sheet)).toMatchObject({ ok: true });
    expect(inspectZip(readFixture('historia-clinica.docx'))).toMatchObject({ ok: true });
    expect(bomb.length).toBeLessThan(2 * MB);
    expect(inspectZip(bomb)).toEqual({ ok: false, reason: 'too_large' });
    // 20 MB of zeros: under the total, but a thousand times smaller packed than unpacked.
    expect(inspectZip(await withHugePart(sheet, 'xl/worksheets/sheet1.xml', 20 * MB))).toEqual({ ok: false, reason: 'ratio' });
    expect(inspectZip(Buffer.from('PK\u0003\u0004 no es un zip'))).toEqual({ ok: false, reason: 'not_zip' });
  }, 60_000);
});

describe('office files are parsed in a worker thread', () => {
  it('reads the rows of a sheet and converts a Word file', async () => {
    expect((await readXlsxRows(sheet, 10)).map((r) => r.values)).toEqual([
      ['Nombre', 'Email'],
      ['Ana', 'ana@example.com'],
    ]);
    expect(await convertDocxToHtml(readFixture('historia-clinica.docx'))).toMatch(/<p>/);
  });

  it('stops at the row cap while streaming, and reports an unreadable part as invalid', async () => {
    const rows = [['Nombre'], ...Array.from({ length: 30 }, (_, i) => [`P${i}`])];
    await expect(readXlsxRows(await xlsx(rows), 10)).rejects.toMatchObject({ reason: 'too_many_rows' });
    const garbage = zip([
      { name: '[Content_Types].xml', data: Buffer.from('<no') },
      { name: 'xl/workbook.xml', data: Buffer.from('basura') },
    ]);
    await expect(readXlsxRows(garbage, 10)).rejects.toBeInstanceOf(OfficeFileError);
  });

  it('a worker out of time or out of memory (what a directory lying about sizes leads to) refuses the file, and the next one is read', async () => {
    await expect(readXlsxRows(sheet, 10, { timeoutMs: 1 })).rejects.toMatchObject({ reason: 'invalid' });
    // A heap too small for the parser: the worker dies (ERR_WORKER_OUT_OF_MEMORY), this process does not.
    await expect(readXlsxRows(sheet, 10, { maxHeapMb: 4 })).rejects.toMatchObject({ reason: 'invalid' });
    expect((await readXlsxRows(sheet, 10)).length).toBe(2);
  }, 60_000);
});

describe('uploads of a zip bomb', () => {
  let t: TestApp;
  let owner: Therapist;
  let W: string;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await therapist(t, 'bomba@divan.test', 'Bomba');
    W = `/api/v1/workspaces/${(await createWorkspace(t, owner, 'Consulta Bomba')).id}`;
  });
  afterAll(() => t?.close());

  const send = (url: string, name: string, type: string, data: Buffer) => {
    const { payload, headers } = multipart('file', name, type, data);
    return t.app.inject({ method: 'POST', url, payload, headers: { ...headers, authorization: `Bearer ${owner.accessToken}` } });
  };

  it('an Excel import is refused in Spanish at once, before anything is unpacked', async () => {
    const started = Date.now();
    const res = await send(`${W}/patient-imports`, 'bomba.xlsx', XLSX_TYPE, bomb);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(res.statusCode).toBe(413);
    expect(json(res)).toEqual({
      code: 'file_too_large',
      message: 'El archivo ocupa más de 50 MB una vez descomprimido. Divídelo en varios archivos.',
    });
  });

  it('a Word import too', async () => {
    const patient = json<{ id: string }>(await t.post(`${W}/patients`, { firstName: 'Sara' }, { token: owner.accessToken }));
    const docBomb = await withHugePart(readFixture('historia-clinica.docx'), 'word/document.xml', 200 * MB);
    const res = await send(`${W}/patients/${patient.id}/history/import-docx`, 'bomba.docx', DOCX, docBomb);
    expect(res.statusCode).toBe(413);
    expect(json<{ message: string }>(res).message).toMatch(/más de 50 MB una vez descomprimido/);
  }, 30_000);

  it(`a sheet past ${IMPORT_MAX_ROWS} rows is refused with the cap in the message`, async () => {
    const rows = [['Nombre'], ...Array.from({ length: IMPORT_MAX_ROWS + 1 }, (_, i) => [`Paciente ${i}`])];
    const res = await send(`${W}/patient-imports`, 'muchas.xlsx', XLSX_TYPE, await xlsx(rows));
    expect(res.statusCode).toBe(400);
    expect(json(res)).toEqual({
      code: 'invalid_import_file',
      message: 'El archivo tiene más de 10.000 filas. Divídelo en varios archivos.',
    });
  }, 60_000);
});
