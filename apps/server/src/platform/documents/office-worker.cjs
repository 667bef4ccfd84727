'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a plain CommonJS file, run as a worker thread */
/**
 * Runs in a worker thread (see office-files.ts): unpacks and parses one .xlsx or .docx away from the
 * thread that serves requests and runs PGlite. Plain CommonJS so the same file runs beside the
 * TypeScript sources (tests) and copied beside the bundle in dist/ (npm start). Module paths come
 * from the parent, resolved from its own location.
 */
const { parentPort, workerData } = require('node:worker_threads');
const { Readable } = require('node:stream');

class TooManyRows extends Error {}

const isBlank = (v) =>
  v === null ||
  v === undefined ||
  (typeof v === 'string' && !v.trim()) ||
  (typeof v === 'object' &&
    !(v instanceof Date) &&
    'richText' in v &&
    !v.richText
      .map((r) => r.text)
      .join('')
      .trim());

/** The first sheet with data, streamed: its non-empty rows as raw cell values, stopping past the cap. */
async function readXlsx(buffer, modules, maxRows) {
  const Excel = require(modules.exceljs);
  const reader = new Excel.stream.xlsx.WorkbookReader(Readable.from([buffer]), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  for await (const sheet of reader) {
    const rows = [];
    for await (const row of sheet) {
      const values = [];
      for (let i = 1; i <= row.cellCount; i++) values.push(row.getCell(i).value ?? null);
      if (values.every(isBlank)) continue;
      rows.push({ number: row.number, values });
      if (rows.length > maxRows) throw new TooManyRows();
    }
    if (rows.length) return { rows };
  }
  return { rows: [] };
}

async function readDocx(buffer, modules) {
  const mammoth = require(modules.mammoth);
  return { html: (await mammoth.convertToHtml({ buffer })).value };
}

async function run({ kind, data, modules, maxRows }) {
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return kind === 'xlsx' ? readXlsx(buffer, modules, maxRows) : readDocx(buffer, modules);
}

run(workerData).then(
  (result) => parentPort.postMessage({ ok: true, result }),
  (err) => parentPort.postMessage({ ok: false, reason: err instanceof TooManyRows ? 'too_many_rows' : 'invalid' }),
);
