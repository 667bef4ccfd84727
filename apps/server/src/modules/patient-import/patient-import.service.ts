import { setImmediate as yieldToLoop } from 'node:timers/promises';
import {
  DEFAULT_TIME_ZONE,
  IMPORT_SAMPLE_ROWS,
  IMPORT_TTL_MS,
  type ImportProgress,
  type ImportUpload,
  patientErrorMessages,
  scopeFor,
  suggestImportMapping,
  todayIn,
} from '@divan/core';
import type { Cipher } from '../../platform/crypto/cipher';
import type { Db, DbOrTx } from '../../platform/db/database';
import type { Jobs, QueueDefinition } from '../../platform/jobs/jobs';
import { AppError } from '../../platform/errors';
import type { Caller } from '../../platform/auth/caller';
import type { ImportedPatient, PatientsService } from '../patients/patients.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { mapRow, pathOf, type Mapping } from './row-mapper';
import { cellText, decodeRows, encodeRows, readSheet, type SheetRow } from './xlsx-reader';
import { patientImportRepository } from './patient-import.repository';
import type { PatientImportRow } from './patient-import.tables';

/** Associated data of the uploaded rows (bound to their column; the cipher binds the workspace). */
export const ROWS_AAD = 'patient_imports.rows';

type Job = Pick<PatientImportRow, 'id' | 'workspaceId' | 'userId' | 'columns'>;
type ImportJob = { importId: string };
const QUEUE = 'patients.import';
const NO_LONGER_ALLOWED = 'Ya no tienes permiso para crear pacientes en este espacio de trabajo: no se ha importado ninguno.';

const INSERT_BATCH = 500;
const YIELD_EVERY = 250;
/**
 * A running import whose progress has not moved for this long lost its server process and its retries
 * (a lost process's job is retried after about two minutes, and saves progress as it goes).
 */
const STALLED_MS = 10 * 60_000;
const STALLED_MESSAGE =
  'La importación se interrumpió (el servidor se reinició). No se ha importado ningún paciente: vuelve a subir el archivo.';

/** The fields a mapping fills, as paths of the create body (`treatment.motive`). */
const mappedFields = (mapping: Mapping) =>
  (Object.entries(mapping) as [keyof Mapping, number | null | undefined][]).flatMap(([f, i]) =>
    i === null || i === undefined ? [] : [pathOf(f)],
  );

/**
 * Importing patients from a spreadsheet in two steps: the upload is parsed and kept (encrypted, per
 * workspace and user, for 30 minutes) while the user maps columns; the commit validates every row with
 * the form's rules and writes all valid ones in one transaction, in the background, while the client
 * polls the progress. Uploads and progress live in the database (`patient_imports`), so behind several
 * server processes any of them can take the commit or answer a poll; the process running an import
 * answers its polls from memory, row by row.
 */
export class PatientImportService {
  /** Imports running in this process, with their live progress. */
  private readonly live = new Map<string, ImportProgress>();

  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
    private readonly workspaces: WorkspacesService,
    private readonly cipher: Cipher,
    private readonly jobs: Jobs,
  ) {}

  /** Its queue, defined by the module entry (patient-import.module.ts): an import's commit runs here. */
  readonly queue: QueueDefinition<ImportJob> = {
    name: QUEUE,
    work: (data) => this.work(data.importId),
    // An import of the largest file takes seconds: one running this long lost its process.
    expireInSeconds: 120,
    retryLimit: 2,
    retryDelaySeconds: 5,
    pollingIntervalSeconds: 2,
  };

  async upload(c: Caller, data: Buffer): Promise<ImportUpload> {
    const sheet = await readSheet(data);
    const ws = c.member.workspaceId;
    const rowsEnc = await this.cipher.encryptText(ws, encodeRows(sheet.rows), ROWS_AAD);
    const job = await this.db.transaction(async (tx) => {
      const repo = patientImportRepository(tx);
      // One file waits for its mapping per workspace and user: a new upload replaces it.
      await repo.deleteWaiting(ws, c.userId);
      // Expired ones go too, unless an import is still running (it has rows and a recent progress).
      await repo.deleteExpired();
      return repo.insert({
        workspaceId: ws,
        userId: c.userId,
        columns: sheet.columns,
        rowsEnc,
        expiresAt: new Date(Date.now() + IMPORT_TTL_MS),
      });
    });
    return {
      importId: job!.id,
      columns: sheet.columns,
      sampleRows: sheet.rows.slice(0, IMPORT_SAMPLE_ROWS).map((r) => sheet.columns.map((_, i) => cellText(r.cells[i]))),
      totalRows: sheet.rows.length,
      suggestedMapping: suggestImportMapping(sheet.columns),
    };
  }

  /**
   * Starts the import and returns at once; `status` reports how it goes. The claim and the job are
   * written in one transaction, so the import runs (in whichever server process takes the job) even if
   * this one stops right after answering.
   */
  async commit(c: Caller, importId: string, mapping: Mapping): Promise<{ importId: string }> {
    const row = await this.find(c, importId);
    if (row.progress) throw new AppError('import_already_started');
    const fields = Object.entries(mapping).filter(([, i]) => i !== null && i !== undefined && i >= row.columns.length);
    if (fields.length)
      throw new AppError(
        'invalid_argument',
        fields.map(([f]) => ({ path: `mapping.${f}`, message: patientErrorMessages.importColumnInvalid })),
        patientErrorMessages.importColumnInvalid,
      );
    // Only fields the caller may write (PATIENT_FIELDS): Recepción imports no treatment column.
    this.patients.assertCanImport(c, mappedFields(mapping));
    const total = decodeRows(await this.cipher.decryptText(row.workspaceId, row.rowsEnc!, ROWS_AAD)).length;
    const progress: ImportProgress = { status: 'validating', processed: 0, total, created: 0, errors: [] };
    await this.db.transaction(async (tx) => {
      // Claimed in one statement: two commits of the same upload (two tabs, two processes) start one import.
      if (!(await patientImportRepository(tx).claim(row.id, progress, mapping))) throw new AppError('import_already_started');
      await this.jobs.send<ImportJob>(QUEUE, { importId: row.id }, { tx, key: row.id });
    });
    return { importId: row.id };
  }

  async status(c: Caller, importId: string): Promise<ImportProgress> {
    const live = this.live.get(importId);
    const row = await this.find(c, importId);
    const progress = live ?? row.progress;
    if (!progress) throw new AppError('import_not_started');
    const running = progress.status === 'validating' || progress.status === 'importing';
    if (!live && running && Date.now() - row.updatedAt.getTime() > STALLED_MS)
      return { ...progress, status: 'failed', created: 0, message: STALLED_MESSAGE };
    return { ...progress, errors: [...progress.errors] };
  }

  /**
   * The import job. The importer's permission is read again now (not trusted from the commit); the rows
   * are written in one transaction that also records the outcome, so a job retried after a crash finds
   * the import done and imports nothing twice.
   */
  private async work(importId: string) {
    const row = await patientImportRepository(this.db).byId(importId);
    if (!row?.progress || !row.rowsEnc || row.progress.status === 'done' || row.progress.status === 'failed') return;
    const progress: ImportProgress = { status: 'validating', processed: 0, total: row.progress.total, created: 0, errors: [] };
    this.live.set(row.id, progress);
    try {
      const member = await this.workspaces.resolveMembership(row.workspaceId, row.userId);
      if (!member?.ability.can('create', 'patient_files')) throw new AppError('access_denied', undefined, NO_LONGER_ALLOWED);
      this.patients.assertCanImport({ member, userId: row.userId }, mappedFields((row.mapping ?? {}) as Mapping));
      const rows = decodeRows(await this.cipher.decryptText(row.workspaceId, row.rowsEnc, ROWS_AAD));
      await this.run({ member, userId: row.userId }, row, rows, (row.mapping ?? {}) as Mapping, progress);
    } catch (err) {
      if (!(err instanceof AppError)) {
        // Unexpected (the database went away…): the job is retried; the stored progress stays "running".
        this.live.delete(row.id);
        throw err;
      }
      Object.assign(progress, { status: 'failed', created: 0, message: err.message });
      await this.saveOutcome(this.db, row.id, progress);
    } finally {
      this.live.delete(row.id);
    }
  }

  private async saveOutcome(tx: DbOrTx, id: string, progress: ImportProgress) {
    // The rows are done with; the outcome stays readable for a while.
    await patientImportRepository(tx).saveOutcome(id, progress);
  }

  /** Saves how validation goes, for polls that reach another server process. */
  private async saveProgress(id: string, progress: ImportProgress) {
    await patientImportRepository(this.db).saveProgress(id, progress);
  }

  /** Uploads nobody imported, and finished imports, past their time (the hourly sweep, patient-import.module.ts). */
  async sweep(): Promise<number> {
    return patientImportRepository(this.db).deletePastTime();
  }

  private async run(c: Caller, job: Job, rows: SheetRow[], mapping: Mapping, progress: ImportProgress) {
    const ws = job.workspaceId;
    const valid: { row: number; values: ImportedPatient }[] = [];
    const seen = new Map<string, number>();
    // Someone who sees only their own patients imports them assigned to themselves, as when creating one.
    // In an Individual workspace they are the owner's.
    const assigned =
      scopeFor(c.member.ability, 'read', 'patient_files', c.userId).kind === 'own' ? c.userId : await this.workspaces.soloOwnerOf(ws);
    const today = todayIn(DEFAULT_TIME_ZONE);
    for (const [i, r] of rows.entries()) {
      const mapped = mapRow(r.cells, mapping);
      if (!mapped.ok) progress.errors.push({ row: r.row, reason: mapped.reason });
      else {
        const b = mapped.body;
        const keys = [b.email && `email:${b.email}`, b.billingInfo?.taxId && `tax:${b.billingInfo.taxId}`].filter((k): k is string => !!k);
        const repeated = keys.find((k) => seen.has(k));
        if (repeated)
          progress.errors.push({
            row: r.row,
            reason: `${repeated.startsWith('email') ? 'Email' : 'DNI/NIE'} repetido en la fila ${seen.get(repeated)}`,
          });
        else {
          for (const k of keys) seen.set(k, r.row);
          const values: ImportedPatient = {
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
          };
          valid.push({ row: r.row, values });
        }
      }
      progress.processed = i + 1;
      // Long files: let polls and other requests in between rows, and tell the other processes.
      if ((i + 1) % YIELD_EVERY === 0) {
        await this.saveProgress(job.id, progress);
        await yieldToLoop();
      }
    }

    progress.status = 'importing';
    // Inside the transaction nothing else may be written (PGlite has one connection): polls reaching
    // another process see "importing" until the outcome is saved.
    await this.saveProgress(job.id, progress);
    await this.db.transaction(async (tx) => {
      await this.workspaces.lockWorkspace(ws, tx);
      // Checked under the workspace lock, so two imports (or a form) cannot both add the same person.
      const existing = await this.patients.existingContacts(
        ws,
        valid.flatMap((v) => (v.values.email ? [v.values.email] : [])),
        valid.flatMap((v) => (v.values.billingTaxId ? [v.values.billingTaxId] : [])),
        tx,
      );
      const fresh: ImportedPatient[] = [];
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
            patientErrorMessages.importOverLimit(activePatientLimit, active, fresh.length),
          );
      }
      for (let i = 0; i < fresh.length; i += INSERT_BATCH) {
        const batch = fresh.slice(i, i + INSERT_BATCH);
        await this.patients.insertMany(batch, tx);
        progress.created += batch.length;
      }
      progress.errors.sort((a, b) => a.row - b.row);
      // The outcome is written as "done" in the transaction, but the live progress (what polls to this
      // process read) says so only after the commit: a poll that sees "done" then finds the patients.
      await this.saveOutcome(tx, job.id, { ...progress, status: 'done' });
    });
    progress.status = 'done';
    await this.patients.imported(ws, job.id, progress.created);
  }

  /** Another user's or workspace's import does not exist for the caller. */
  private async find(c: Caller, importId: string): Promise<PatientImportRow> {
    const row = await patientImportRepository(this.db).find(c.member.workspaceId, c.userId, importId);
    if (!row || (row.expiresAt.getTime() <= Date.now() && !this.live.has(row.id))) throw new AppError('import_not_found');
    return row;
  }
}
