import { fileErrorMessages } from '@divan/core';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { AppError } from '../errors';
import { inspectZip, OFFICE_ZIP_LIMITS, type ZipLimits } from './zip-guard';

/**
 * .xlsx and .docx uploads are zips: their size once unpacked is checked from the central directory
 * first (zip-guard), then they are unpacked and parsed in a worker thread with its own memory ceiling,
 * so neither a bomb nor a slow parse holds the thread that serves requests and runs PGlite. A worker
 * that runs out of memory or time is a refused file, never a crashed server.
 */
export type RawCell = unknown;
export type RawRow = { number: number; values: RawCell[] };
export type OfficeFailure = 'not_zip' | 'too_large' | 'suspicious' | 'too_many_rows' | 'invalid';

export class OfficeFileError extends Error {
  constructor(readonly reason: OfficeFailure) {
    super(`office file refused: ${reason}`);
  }
}

export type OfficeOptions = { limits?: ZipLimits; timeoutMs?: number; maxHeapMb?: number };

const requireHere = createRequire(import.meta.url);
/** Beside this module in src/, and copied beside the bundle in dist/ by build.mjs. */
const WORKER = new URL('./office-worker.cjs', import.meta.url);

export const unpackedLimitMb = () => OFFICE_ZIP_LIMITS.maxTotalBytes / 1024 / 1024;

export async function readXlsxRows(data: Buffer, maxRows: number, opts: OfficeOptions = {}): Promise<RawRow[]> {
  const result = (await parseInWorker('xlsx', data, { ...opts, maxRows })) as { rows: RawRow[] };
  return result.rows;
}

export async function convertDocxToHtml(data: Buffer, opts: OfficeOptions = {}): Promise<string> {
  return ((await parseInWorker('docx', data, opts)) as { html: string }).html;
}

/** The Spanish refusal of a file that could not be read: too big once unpacked, oddly packed, or unreadable. */
export function officeRefusal(err: unknown, code: 'invalid_import_file' | 'invalid_docx_file'): AppError {
  const reason = err instanceof OfficeFileError ? err.reason : 'invalid';
  if (reason === 'too_large') return new AppError('file_too_large', undefined, fileErrorMessages.unpackedTooLarge(unpackedLimitMb()));
  if (reason === 'suspicious') return new AppError(code, undefined, fileErrorMessages.oddlyPacked);
  return new AppError(code);
}

/** A worker that ended without answering (as opposed to one that answered "this file is invalid"). */
class WorkerLost extends OfficeFileError {
  constructor(readonly lost: unknown) {
    super('invalid');
  }
}

async function parseInWorker(kind: 'xlsx' | 'docx', data: Buffer, opts: OfficeOptions & { maxRows?: number }): Promise<unknown> {
  const verdict = inspectZip(data, opts.limits);
  if (!verdict.ok)
    throw new OfficeFileError(verdict.reason === 'too_large' ? 'too_large' : verdict.reason === 'not_zip' ? 'not_zip' : 'suspicious');
  try {
    return await runWorker(kind, data, opts);
  } catch (err) {
    // A worker lost without an answer (not out of memory: that is the file's fault) gets one more try,
    // so a busy machine failing to start a thread does not refuse a good file.
    if (!(err instanceof WorkerLost) || (err.lost as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') throw err;
    console.warn(`office file worker lost (${String((err.lost as Error | undefined)?.message ?? err.lost)}); trying once more`);
    return runWorker(kind, data, opts);
  }
}

function runWorker(kind: 'xlsx' | 'docx', data: Buffer, opts: OfficeOptions & { maxRows?: number }): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      workerData: {
        kind,
        data,
        maxRows: opts.maxRows ?? 0,
        modules: { exceljs: requireHere.resolve('exceljs'), mammoth: requireHere.resolve('mammoth') },
      },
      resourceLimits: { maxOldGenerationSizeMb: opts.maxHeapMb ?? 384 },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => reject(new OfficeFileError('invalid'))), opts.timeoutMs ?? 60_000);
    worker.once('message', (m: { ok: true; result: unknown } | { ok: false; reason: OfficeFailure }) =>
      settle(() => (m.ok ? resolve(m.result) : reject(new OfficeFileError(m.reason)))),
    );
    // Out of memory (ERR_WORKER_OUT_OF_MEMORY), a crash: the file is refused (see parseInWorker).
    worker.once('error', (err) => settle(() => reject(new WorkerLost(err))));
    worker.once('exit', (code) => settle(() => reject(new WorkerLost(new Error(`exit ${code}`)))));
  });
}
