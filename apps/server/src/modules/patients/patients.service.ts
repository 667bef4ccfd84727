import { randomUUID } from 'node:crypto';
import {
  formatDayEs,
  DEFAULT_TIME_ZONE,
  PATIENT_FIELDS,
  fieldAccessKey,
  patientListResponse,
  scopeFor,
  toLocal,
  todayIn,
  type Action,
  type Patient,
  type Scope,
  type Subject,
} from '@divan/core';
import type { ListQuery } from './patients.repository';
import type { Cipher } from '../../platform/crypto/cipher';
import type { Db, DbOrTx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import { compiledSerializer } from '../../platform/http/compiled-serializer';
import type { EventBus } from '../../platform/events/event-bus';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { patientsRepository, searchTextOf, type NewPatient } from './patients.repository';
import {
  billingColumns,
  duplicate,
  personalColumns,
  treatmentChanges,
  treatmentColumns,
  type Create,
  type UpdateInfo,
  type UpdateTreatment,
} from './patient-columns';
import { listKey, patientListCache, type PatientListCache } from './patient-list-cache';
import { NO_PATIENT_DOCUMENTS, type PatientDocuments } from './patient-documents';
import { assertWritable, listFieldAccess } from './patient-field-access';
import { encryptClearMedication, sealMedication } from './patient-medication';
import { summary } from './patient-presenter';
import { contactOf, judged, namesOf, profilesOf, signingDataOf, type PatientProfile } from './patient-lookups';
import { connectCardOf, presentFile, therapistNamesOf } from './patient-file';
import { PatientAccessLog } from './patient-access-log';
import { retentionEnd } from './patient-retention';
import { PatientErasure, type ErasureStep } from './patient-erasure';
import type { PatientRow } from './patients.tables';
import type { Caller } from '../../platform/auth/caller';

/** The list's contract compiled once (platform/http/compiled-serializer.ts): no Zod pass over 50 rows per page. */
const serializeList = compiledSerializer(patientListResponse);

export type PatientIdFilter = { search?: string; statuses?: PatientRow['treatmentStatus'][]; live?: boolean };
/** A patient row as an import writes it (everything but what this module derives). */
export type ImportedPatient = Omit<NewPatient, 'searchText'>;
export type { ErasureStep, PatientProfile };

/**
 * Patients and their treatment. Other features (history, documents, import) reach patients through here;
 * every committed change is a `patient.*` event (packages/core/src/events.ts) for those that react to it.
 */
export class PatientsService {
  private readonly erasure: PatientErasure;
  private readonly access: PatientAccessLog;

  constructor(
    private readonly db: Db,
    private readonly users: UsersService,
    private readonly workspaces: WorkspacesService,
    private readonly events: EventBus,
    private readonly cipher: Cipher,
    private readonly listCache: PatientListCache = patientListCache(0),
    /** The documents module's part of a file (read at use: that module is built after this one). */
    private readonly documents: () => PatientDocuments = () => NO_PATIENT_DOCUMENTS,
  ) {
    this.erasure = new PatientErasure(db, events, () => [this.documents().eraseWithPatient]);
    this.access = new PatientAccessLog(db, (ids) => this.therapistNames(ids));
  }

  /** Start-up: medication kept in clear by earlier versions is encrypted, once (patient-medication.ts). */
  encryptClearMedication = () => encryptClearMedication(this.db, this.cipher);

  /** The importer committed `created` patients in one transaction. */
  imported = (workspaceId: string, importId: string, created: number) =>
    this.events.emit('patients.imported', { workspaceId, importId, created });

  /**
   * The list as the JSON the route sends. Pages are cached until the workspace's patients change
   * (platform/cache/workspace-cache.ts); a miss is written by the response contract compiled to a serialiser.
   */
  async listJson(c: Caller, query: ListQuery): Promise<Buffer> {
    const ws = c.member.workspaceId;
    const scope = scopeFor(c.member.ability, 'read', 'patient_files', c.userId);
    const generation = this.listCache.generation(ws);
    // Pages are shared only between members who read the same fields of the same patients.
    const key = listKey(ws, generation, scope, query, fieldAccessKey(c.member.ability, PATIENT_FIELDS, c.userId));
    const hit = this.listCache.get(key);
    if (hit !== undefined) return hit;
    // Kept as bytes: a hit is written to the socket without encoding 20 KB of text again.
    const body = Buffer.from(serializeList(await this.list(c, query)));
    this.listCache.set(key, ws, generation, body);
    return body;
  }

  /** Filters, sort, search and counts only by fields the member reads on every listed patient (patient-field-access.ts). */
  async list(c: Caller, query: ListQuery) {
    const scope = scopeFor(c.member.ability, 'read', 'patient_files', c.userId);
    const { searchTaxId, statusCounts } = listFieldAccess(c, query);
    const { items, total, counts } = await patientsRepository(this.db).list(c.member.workspaceId, scope, query, { searchTaxId });
    const names = await this.therapistNames(items.map((p) => p.assignedTherapistId));
    const rows = items.map((p) => summary(c.member.ability, p, names));
    return { items: rows, total, ...(statusCounts ? { counts } : {}), page: query.page, pageSize: query.pageSize };
  }

  /**
   * The patient if the caller may do `action` on `subject` for it; 404 otherwise, so a therapist
   * restricted to assigned patients learns nothing of the others.
   */
  async accessible(
    c: Caller,
    patientId: string,
    action: Exclude<Action, 'manage'> = 'read',
    subject: Subject = 'patient_files',
    tx: DbOrTx = this.db,
  ) {
    const p = judged(
      c,
      await patientsRepository(tx).find(c.member.workspaceId, patientId, scopeFor(c.member.ability, 'read', 'patient_files', c.userId)),
      action,
      subject,
    );
    if (p instanceof AppError) throw p;
    return p;
  }

  /** `accessible` for several patients in one read (a batch of invoices): each id's row, or the error `accessible` would throw. */
  async accessibleMany(
    c: Caller,
    ids: string[],
    action: Exclude<Action, 'manage'>,
    subject: Subject,
    tx: DbOrTx = this.db,
  ): Promise<Map<string, PatientRow | AppError>> {
    const rows = await patientsRepository(tx).findMany(
      c.member.workspaceId,
      [...new Set(ids)],
      scopeFor(c.member.ability, 'read', 'patient_files', c.userId),
    );
    const found = new Map(rows.map((p) => [p.id, p]));
    return new Map(ids.map((id) => [id, judged(c, found.get(id), action, subject)]));
  }

  async get(c: Caller, patientId: string): Promise<Patient> {
    const p = await this.accessible(c, patientId);
    const out = await this.present(c, p);
    if (out.treatment) await this.logAccess(c, p, 'treatment.read');
    return out;
  }

  async create(c: Caller, body: Create): Promise<Patient> {
    const ws = c.member.workspaceId;
    // Someone who sees only their own patients creates them assigned to themselves.
    const ownOnly = scopeFor(c.member.ability, 'read', 'patient_files', c.userId).kind === 'own';
    let assigned = body.assignedTherapistId ?? (ownOnly ? c.userId : null);
    if (assigned && assigned !== c.userId && !c.member.ability.can('update', 'patient_assignment')) throw new AppError('access_denied');
    if (ownOnly) assigned = c.userId;
    // In an Individual workspace a patient is the owner's.
    assigned ??= await this.workspaces.soloOwnerOf(ws);
    assertWritable(c, body, { ownerId: assigned }, 'create');
    // Encrypted before the transaction (a workspace's first key is created on the pool).
    const id = randomUUID();
    const medication = await sealMedication(this.cipher, ws, id, body.treatment?.medication);
    const row = await this.events.transaction(this.db, async (tx, emit) => {
      await this.workspaces.lockWorkspace(ws, tx);
      if (assigned && !(await this.workspaces.isMember(ws, assigned, tx))) throw new AppError('therapist_not_member');
      await this.assertBelowLimit(tx, ws, assigned ?? c.userId);
      const taxId = body.billingInfo?.taxId ?? null;
      if (await patientsRepository(tx).findDuplicate(ws, body.email ?? null, taxId)) throw duplicate(body.email, taxId);
      const values: NewPatient = {
        id,
        workspaceId: ws,
        assignedTherapistId: assigned,
        createdBy: c.userId,
        ...personalColumns(body),
        ...billingColumns(body.billingInfo),
        treatmentStatus: 'active',
        treatmentStartDate: body.treatment?.startDate ?? todayIn(DEFAULT_TIME_ZONE),
        ...treatmentColumns(body.treatment ?? {}),
        treatmentMedicationEnc: medication ?? null,
        searchText: '',
      };
      values.searchText = searchTextOf(values as PatientRow);
      const created = await patientsRepository(tx).insert(values);
      emit('patient.created', { workspaceId: ws, patientId: created.id, assignedTherapistId: created.assignedTherapistId });
      return created;
    });
    return this.present(c, row);
  }

  async updateInfo(c: Caller, patientId: string, body: UpdateInfo): Promise<Patient> {
    const row = await this.events.transaction(this.db, async (tx, emit) => {
      const p = await this.accessible(c, patientId, 'update', 'patient_files', tx);
      assertWritable(c, body, { ownerId: p.assignedTherapistId }, 'update');
      const next = { ...p, ...personalColumns(body, p), ...(body.billingInfo ? billingColumns(body.billingInfo, p) : {}) };
      if (
        (body.email !== undefined || body.billingInfo?.taxId !== undefined) &&
        (await patientsRepository(tx).findDuplicate(p.workspaceId, next.email, next.billingTaxId, p.id))
      )
        throw duplicate(next.email, next.billingTaxId);
      const updated = await patientsRepository(tx).update(p.id, {
        ...personalColumns(body, p),
        ...(body.billingInfo ? billingColumns(body.billingInfo, p) : {}),
        searchText: searchTextOf(next),
      });
      const personal = Object.entries(body).some(([k, v]) => k !== 'billingInfo' && v !== undefined);
      const parts = [...(personal ? (['personal'] as const) : []), ...(body.billingInfo ? (['billing'] as const) : [])];
      emit('patient.updated', { workspaceId: p.workspaceId, patientId: p.id, parts, treatmentStatus: updated.treatmentStatus });
      return updated;
    });
    return this.present(c, row);
  }

  /** Ending a treatment needs its end date and reason; reactivating counts against the plan limit. */
  async updateTreatment(c: Caller, patientId: string, body: UpdateTreatment): Promise<Patient> {
    const medication = await sealMedication(this.cipher, c.member.workspaceId, patientId, body.medication);
    const row = await this.events.transaction(this.db, async (tx, emit) => {
      const p = await this.accessible(c, patientId, 'update', 'patient_treatment', tx);
      assertWritable(c, { treatment: body }, { ownerId: p.assignedTherapistId }, 'update');
      const changes: Partial<NewPatient> = {
        ...treatmentChanges(p, body),
        ...(medication !== undefined ? { treatmentMedicationEnc: medication } : {}),
        lastActivityAt: new Date(),
      };
      if (changes.treatmentStatus === 'active' && p.treatmentStatus !== 'active') {
        await this.workspaces.lockWorkspace(p.workspaceId, tx);
        await this.assertBelowLimit(tx, p.workspaceId, p.assignedTherapistId ?? p.createdBy ?? c.userId);
      }
      const updated = await patientsRepository(tx).update(p.id, changes);
      emit('patient.updated', {
        workspaceId: p.workspaceId,
        patientId: p.id,
        parts: ['treatment'],
        treatmentStatus: updated.treatmentStatus,
      });
      return updated;
    });
    return this.present(c, row);
  }

  async assign(c: Caller, patientId: string, therapistId: string | null): Promise<Patient> {
    const row = await this.events.transaction(this.db, async (tx, emit) => {
      const p = await this.accessible(c, patientId, 'update', 'patient_assignment', tx);
      if (therapistId) {
        if (!(await this.workspaces.isMember(p.workspaceId, therapistId, tx))) throw new AppError('therapist_not_member');
        if (p.treatmentStatus === 'active' && therapistId !== p.assignedTherapistId) {
          await this.workspaces.lockWorkspace(p.workspaceId, tx);
          await this.assertBelowLimit(tx, p.workspaceId, therapistId);
        }
      }
      const updated = await patientsRepository(tx).update(p.id, { assignedTherapistId: therapistId });
      emit('patient.assigned', { workspaceId: p.workspaceId, patientId: p.id, therapistId, previousTherapistId: p.assignedTherapistId });
      return updated;
    });
    return this.present(c, row);
  }

  /**
   * Inside the legal retention period (5 years from the end of treatment or the last activity on
   * the file, whichever is later) a patient is blocked, not erased, and the answer says until when.
   */
  async delete(c: Caller, patientId: string, now = new Date()) {
    const out = await this.events.transaction(this.db, async (tx, emit, onCommit) => {
      const p = await this.accessible(c, patientId, 'delete', 'patient_files', tx);
      const retainedUntil = retentionEnd(p);
      if (retainedUntil > now) {
        await patientsRepository(tx).update(p.id, { blockedAt: now, treatmentStatus: 'inactive' });
        const until = toLocal(retainedUntil, DEFAULT_TIME_ZONE).day;
        emit('patient.blocked', { workspaceId: p.workspaceId, patientId: p.id, retainedUntil: until });
        return {
          result: 'blocked' as const,
          retainedUntil: until,
          message: `La ley obliga a conservar la historia clínica 5 años. El paciente queda bloqueado (oculto y sin acceso) y podrá borrarse a partir del ${formatDayEs(until)}.`,
        };
      }
      await this.erasure.erase(tx, p, emit, onCommit);
      return { result: 'deleted' as const, retainedUntil: null, message: 'Paciente eliminado definitivamente.' };
    });
    return out;
  }

  /** The retention sweep (hourly): blocked patients are erased once their retention period ends (patient-erasure.ts). */
  eraseExpiredBlocked = (now = new Date(), limit = 50) => this.erasure.expiredBlocked(now, limit);

  /** Marks new clinical activity (history, documents): the retention period restarts from it. */
  touch = (patientId: string, tx: DbOrTx = this.db) => patientsRepository(tx).touch(patientId);

  logAccess = (c: Caller, p: Pick<PatientRow, 'id' | 'workspaceId' | 'firstName' | 'lastName'>, action: string, tx?: DbOrTx) =>
    this.access.record(c, p, action, tx);
  accessLog = (workspaceId: string, patientId: string | undefined, limit: number, before?: string) =>
    this.access.read(workspaceId, patientId, limit, before);

  /**
   * For the importer, at commit and again when the job runs: the mapped fields (`treatment.motive`,
   * `billingInfo.taxId`…) must be fields the caller may write on the patients it creates, or 403.
   */
  assertCanImport(c: Caller, fields: string[]) {
    const ownOnly = scopeFor(c.member.ability, 'read', 'patient_files', c.userId).kind === 'own';
    assertWritable(c, Object.fromEntries(fields.map((f) => [f, ''])), { ownerId: ownOnly ? c.userId : null }, 'create');
  }

  /** Rows of an import (its limit and duplicates checked by it, in its transaction); the search text is computed here, as on create. */
  insertMany = (rows: ImportedPatient[], tx: DbOrTx) =>
    patientsRepository(tx).insertMany(rows.map((r) => ({ ...r, searchText: searchTextOf(r as PatientRow) })));
  findDuplicate = (workspaceId: string, email: string | null, taxId: string | null, tx: DbOrTx = this.db) =>
    patientsRepository(tx).findDuplicate(workspaceId, email, taxId);
  existingContacts = (workspaceId: string, emails: string[], taxIds: string[], tx: DbOrTx = this.db) =>
    patientsRepository(tx).existingContacts(workspaceId, emails, taxIds);
  /** Full names of the workspace's patients among `ids` (what other records show them by, e.g. sessions). */
  namesOf = (workspaceId: string, ids: string[]) => namesOf(this.db, workspaceId, ids);
  /** Name and birthdate of the workspace's patients among `ids` (a consent decides who signs by age). */
  profilesOf = (workspaceId: string, ids: string[], tx: DbOrTx = this.db) => profilesOf(tx, workspaceId, ids);
  /** The ids of the patients a scope sees (optionally searched and by status), as a subquery another module filters by (one query, paged there). */
  idsInScope = (workspaceId: string, scope: Scope, tx: DbOrTx = this.db, filter?: PatientIdFilter) =>
    patientsRepository(tx).idsInScope(workspaceId, scope, filter);
  activeCountFor = (workspaceId: string, therapistId: string, tx: DbOrTx = this.db) =>
    patientsRepository(tx).countActiveFor(workspaceId, therapistId);
  /** How a job writes to a patient (a session's reminder): first name and email; null once blocked or erased. */
  contactOf = (workspaceId: string, patientId: string, tx: DbOrTx = this.db) => contactOf(tx, workspaceId, patientId);
  /** Phone, ID number and address of the file, for the patient's own signing page (consents). */
  signingDataOf = (workspaceId: string, patientId: string) => signingDataOf(this.db, workspaceId, patientId);

  connectCardOf = (workspaceId: string, patientId: string) => connectCardOf(this.db, this.users, workspaceId, patientId);
  private async assertBelowLimit(tx: DbOrTx, workspaceId: string, therapistId: string) {
    const { activePatientLimit } = await this.workspaces.featuresOf(workspaceId, tx);
    if (activePatientLimit !== null && (await patientsRepository(tx).countActiveFor(workspaceId, therapistId)) >= activePatientLimit)
      throw new AppError('patient_limit_reached');
  }

  private therapistNames = (ids: (string | null)[]) => therapistNamesOf(this.users, ids);

  /** The file as the caller reads it: the medication decrypted and each count made only for those who read it. */
  private present = (c: Caller, p: PatientRow) =>
    presentFile({ db: this.db, cipher: this.cipher, users: this.users, documentCount: (id) => this.documents().count(id) }, c, p);
}
