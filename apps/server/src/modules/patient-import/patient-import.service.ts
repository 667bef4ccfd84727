import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import {
  IMPORT_SAMPLE_ROWS,
  IMPORT_TTL_MS,
  errorMessage,
  scopeFor,
  suggestImportMapping,
  type ImportProgress,
  type ImportUpload,
} from '@divan/core';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import { searchTextOf, type NewPatient } from '../patients/patients.repository';
import type { PatientRow } from '../patients/patients.tables';
import type { Caller, PatientsService } from '../patients/patients.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { mapRow, type Mapping } from './row-mapper';
import { cellText, readSheet, type SheetRow } from './xlsx-reader';

type Job = {
  id: string;
  workspaceId: string;
  userId: string;
  expiresAt: number;
  columns: string[];
  rows: SheetRow[];
  /** Null until the user commits a mapping. */
  progress: ImportProgress | null;
};

const INSERT_BATCH = 500;
const YIELD_EVERY = 250;

/**
 * Importing patients from a spreadsheet in two steps: the upload is parsed and kept in memory
 * (per workspace and user, for 30 minutes) while the user maps columns; the commit validates every
 * row with the form's rules and writes all valid ones in one transaction, in the background, while
 * the client polls the progress. Kept in this process's memory: behind several server processes the
 * import's requests must reach the same one (sticky sessions), or this store moves to Redis.
 */
export class PatientImportService {
  private readonly jobs = new Map<string, Job>();
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
    private readonly workspaces: WorkspacesService,
    private readonly log?: FastifyBaseLogger,
  ) {}

  async upload(c: Caller, data: Buffer): Promise<ImportUpload> {
    const sheet = await readSheet(data);
    this.sweep();
    // One file waits for its mapping per workspace and user: a new upload replaces it.
    for (const [id, j] of this.jobs) if (j.workspaceId === c.member.workspaceId && j.userId === c.userId && !j.progress) this.jobs.delete(id);
    const job: Job = { id: randomUUID(), workspaceId: c.member.workspaceId, userId: c.userId, expiresAt: Date.now() + IMPORT_TTL_MS, ...sheet, progress: null };
    this.jobs.set(job.id, job);
    return {
      importId: job.id,
      columns: sheet.columns,
      sampleRows: sheet.rows.slice(0, IMPORT_SAMPLE_ROWS).map((r) => sheet.columns.map((_, i) => cellText(r.cells[i]))),
      totalRows: sheet.rows.length,
      suggestedMapping: suggestImportMapping(sheet.columns),
    };
  }

  /** Starts the import and returns at once; `status` reports how it goes. */
  commit(c: Caller, importId: string, mapping: Mapping): { importId: string } {
    const job = this.find(c, importId);
    if (job.progress) throw new AppError('import_already_started');
    const fields = Object.entries(mapping).filter(([, i]) => i !== null && i !== undefined && i >= job.columns.length);
    if (fields.length)
      throw new AppError('invalid_argument', fields.map(([f]) => ({ path: `mapping.${f}`, message: 'Columna inválida' })), 'Columna inválida');
    const progress: ImportProgress = { status: 'validating', processed: 0, total: job.rows.length, created: 0, errors: [] };
    job.progress = progress;
    const run = this.run(c, job, mapping, progress)
      .catch((err: unknown) => {
        if (!(err instanceof AppError)) this.log?.error({ err }, 'patient import failed');
        Object.assign(progress, { status: 'failed', created: 0, message: err instanceof AppError ? err.message : errorMessage('internal_server_error') });
      })
      .finally(() => {
        // The rows are done with; the progress stays readable for a while.
        job.rows = [];
        job.expiresAt = Date.now() + IMPORT_TTL_MS;
        this.running.delete(run);
      });
    this.running.add(run);
    return { importId: job.id };
  }

  status(c: Caller, importId: string): ImportProgress {
    const job = this.find(c, importId);
    if (!job.progress) throw new AppError('import_not_started');
    return { ...job.progress, errors: [...job.progress.errors] };
  }

  /** Lets running imports finish before the database closes. */
  async drain() {
    await Promise.allSettled([...this.running]);
  }

  private async run(c: Caller, job: Job, mapping: Mapping, progress: ImportProgress) {
    const ws = job.workspaceId;
    const valid: { row: number; values: NewPatient }[] = [];
    const seen = new Map<string, number>();
    // Someone who sees only their own patients imports them assigned to themselves, as when creating one.
    const assigned = scopeFor(c.member.ability, 'read', 'patient_files', c.userId).kind === 'own' ? c.userId : null;
    const today = new Date().toISOString().slice(0, 10);
    for (const [i, r] of job.rows.entries()) {
      const mapped = mapRow(r.cells, mapping);
      if (!mapped.ok) progress.errors.push({ row: r.row, reason: mapped.reason });
      else {
        const b = mapped.body;
        const keys = [b.email && `email:${b.email}`, b.billingInfo?.taxId && `tax:${b.billingInfo.taxId}`].filter((k): k is string => !!k);
        const repeated = keys.find((k) => seen.has(k));
        if (repeated) progress.errors.push({ row: r.row, reason: `${repeated.startsWith('email') ? 'Email' : 'DNI/NIE'} repetido en la fila ${seen.get(repeated)}` });
        else {
          for (const k of keys) seen.set(k, r.row);
          const values: NewPatient = {
            workspaceId: ws,
            assignedTherapistId: assigned,
            createdBy: c.userId,
            firstName: b.firstName,
            lastName: b.lastName ?? null,
            email: b.email ?? null,
            phone: b.phone ?? null,
            birthdate: b.birthdate ?? null,
            gender: b.gender ?? null,
            billingTaxId: b.billingInfo?.taxId ?? null,
            billingLine1: b.billingInfo?.line1 ?? null,
            billingCity: b.billingInfo?.city ?? null,
            billingZipCode: b.billingInfo?.zipCode ?? null,
            billingCountry: b.billingInfo?.country ?? null,
            treatmentStatus: 'active',
            treatmentStartDate: today,
            treatmentMotive: b.treatment?.motive ?? null,
            treatmentSessionType: b.treatment?.sessionType ?? null,
            searchText: '',
          };
          values.searchText = searchTextOf(values as PatientRow);
          valid.push({ row: r.row, values });
        }
      }
      progress.processed = i + 1;
      // Long files: let polls and other requests in between rows.
      if ((i + 1) % YIELD_EVERY === 0) await yieldToLoop();
    }

    progress.status = 'importing';
    await this.db.transaction(async (tx) => {
      await this.workspaces.lockWorkspace(ws, tx);
      // Checked under the workspace lock, so two imports (or a form) cannot both add the same person.
      const existing = await this.patients.existingContacts(
        ws,
        valid.flatMap((v) => (v.values.email ? [v.values.email] : [])),
        valid.flatMap((v) => (v.values.billingTaxId ? [v.values.billingTaxId] : [])),
        tx,
      );
      const fresh: NewPatient[] = [];
      for (const v of valid) {
        const { email, billingTaxId } = v.values;
        if ((email && existing.emails.has(email)) || (billingTaxId && existing.taxIds.has(billingTaxId)))
          progress.errors.push({ row: v.row, reason: 'Ya existe un paciente con este email o DNI/NIE' });
        else fresh.push(v.values);
      }
      const { activePatientLimit } = await this.workspaces.featuresOf(ws, tx);
      if (activePatientLimit !== null) {
        const active = await this.patients.activeCountFor(ws, assigned ?? c.userId, tx);
        if (active + fresh.length > activePatientLimit)
          throw new AppError(
            'patient_limit_reached',
            undefined,
            `Tu plan permite ${activePatientLimit} pacientes activos por terapeuta: ya tienes ${active} y el archivo añade ${fresh.length}. No se ha importado ninguno; mejora tu plan o reduce el archivo.`,
          );
      }
      for (let i = 0; i < fresh.length; i += INSERT_BATCH) {
        const batch = fresh.slice(i, i + INSERT_BATCH);
        await this.patients.insertMany(batch, tx);
        progress.created += batch.length;
      }
    });
    this.patients.changed(ws);
    progress.errors.sort((a, b) => a.row - b.row);
    progress.status = 'done';
  }

  /** Another user's or workspace's import does not exist for the caller. */
  private find(c: Caller, importId: string): Job {
    this.sweep();
    const job = this.jobs.get(importId);
    if (!job || job.workspaceId !== c.member.workspaceId || job.userId !== c.userId) throw new AppError('import_not_found');
    return job;
  }

  private sweep() {
    const now = Date.now();
    for (const [id, j] of this.jobs) if (j.expiresAt <= now && !(j.progress && ['validating', 'importing'].includes(j.progress.status))) this.jobs.delete(id);
  }
}
