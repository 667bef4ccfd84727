import {
  RETENTION_YEARS,
  canOn,
  patientListResponse,
  scopeFor,
  type Action,
  type CreatePatientBody,
  type Patient,
  type PatientSummary,
  type Scope,
  type Subject,
} from '@divan/core';
import type { z } from 'zod';
import type { createPatientBody, updatePatientBody, updateTreatmentBody } from '@divan/core';
import type { ListQuery } from './patients.repository';
import type { Membership } from '../../platform/auth/access';
import type { Db, DbOrTx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { patientsRepository, searchTextOf, type NewPatient } from './patients.repository';
import { WorkspaceCache } from '../../platform/cache/workspace-cache';
import type { PatientRow } from './patients.tables';

type Create = z.output<typeof createPatientBody>;
type UpdateInfo = z.output<typeof updatePatientBody>;
type UpdateTreatment = z.output<typeof updateTreatmentBody>;
export type Caller = { member: Membership; userId: string };
export type ErasureHook = (tx: DbOrTx, patient: PatientRow) => Promise<void>;

const fullName = (p: Pick<PatientRow, 'firstName' | 'lastName'>) => [p.firstName, p.lastName].filter(Boolean).join(' ');

/** Patients and their treatment. Other features (history, documents, import) reach patients through here. */
export class PatientsService {
  private readonly erasureHooks: ErasureHook[] = [];
  private documentCount: (patientId: string) => Promise<number> = async () => 0;

  constructor(
    private readonly db: Db,
    private readonly users: UsersService,
    private readonly workspaces: WorkspacesService,
    private readonly listCache: PatientListCache = patientListCache(0),
  ) {}

  /** After every committed write to a workspace's patients: its cached list pages are gone, everywhere. */
  changed(workspaceId: string) {
    this.listCache.changed(workspaceId);
  }

  /**
   * The list as the JSON the route sends. Pages are cached until the workspace's patients change
   * (platform/cache/workspace-cache.ts); a miss is checked against the response contract like any other route.
   */
  async listJson(c: Caller, query: ListQuery): Promise<Buffer> {
    const ws = c.member.workspaceId;
    const scope = scopeFor(c.member.ability, 'read', 'patient_files', c.userId);
    const generation = this.listCache.generation(ws);
    const key = listKey(ws, generation, scope, query);
    const hit = this.listCache.get(key);
    if (hit !== undefined) return hit;
    // Kept as bytes: a hit is written to the socket without encoding 20 KB of text again.
    const body = Buffer.from(JSON.stringify(patientListResponse.parse(await this.list(c, query))));
    this.listCache.set(key, ws, generation, body);
    return body;
  }

  /** Features that keep data per patient register how to erase it (documents delete their files). */
  onErase(hook: ErasureHook) {
    this.erasureHooks.push(hook);
  }
  countDocumentsWith(fn: (patientId: string) => Promise<number>) {
    this.documentCount = fn;
  }

  async list(c: Caller, query: ListQuery) {
    const scope = scopeFor(c.member.ability, 'read', 'patient_files', c.userId);
    const { items, total, counts } = await patientsRepository(this.db).list(c.member.workspaceId, scope, query);
    const names = await this.therapistNames(items.map((p) => p.assignedTherapistId));
    return { items: items.map((p) => summary(p, names)), total, counts, page: query.page, pageSize: query.pageSize };
  }

  /**
   * The patient if the caller may do `action` on `subject` for it; 404 otherwise, so a therapist
   * restricted to assigned patients learns nothing of the others.
   */
  async accessible(c: Caller, patientId: string, action: Exclude<Action, 'manage'> = 'read', subject: Subject = 'patient_files', tx: DbOrTx = this.db) {
    const scope = scopeFor(c.member.ability, 'read', 'patient_files', c.userId);
    const p = await patientsRepository(tx).find(c.member.workspaceId, patientId, scope);
    if (!p) throw new AppError('patient_not_found');
    if (!canOn(c.member.ability, action, subject, { ownerId: p.assignedTherapistId })) throw new AppError('access_denied');
    return p;
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
    const row = await this.db.transaction(async (tx) => {
      await this.workspaces.lockWorkspace(ws, tx);
      if (assigned && !(await this.workspaces.isMember(ws, assigned, tx))) throw new AppError('therapist_not_member');
      await this.assertBelowLimit(tx, ws, assigned ?? c.userId);
      const taxId = body.billingInfo?.taxId ?? null;
      if (await patientsRepository(tx).findDuplicate(ws, body.email ?? null, taxId)) throw duplicate(body.email, taxId);
      const values: NewPatient = {
        workspaceId: ws,
        assignedTherapistId: assigned,
        createdBy: c.userId,
        ...personalColumns(body),
        ...billingColumns(body.billingInfo),
        treatmentStatus: 'active',
        treatmentStartDate: body.treatment?.startDate ?? new Date().toISOString().slice(0, 10),
        ...treatmentColumns(body.treatment ?? {}),
        searchText: '',
      };
      values.searchText = searchTextOf(values as PatientRow);
      return patientsRepository(tx).insert(values);
    });
    this.changed(ws);
    return this.present(c, row);
  }

  async updateInfo(c: Caller, patientId: string, body: UpdateInfo): Promise<Patient> {
    const row = await this.db.transaction(async (tx) => {
      const p = await this.accessible(c, patientId, 'update', 'patient_files', tx);
      if (body.billingInfo && !canOn(c.member.ability, 'update', 'patient_billing', { ownerId: p.assignedTherapistId })) throw new AppError('access_denied');
      const next = { ...p, ...personalColumns(body, p), ...(body.billingInfo ? billingColumns(body.billingInfo, p) : {}) };
      if ((body.email !== undefined || body.billingInfo?.taxId !== undefined) && (await patientsRepository(tx).findDuplicate(p.workspaceId, next.email, next.billingTaxId, p.id)))
        throw duplicate(next.email, next.billingTaxId);
      return patientsRepository(tx).update(p.id, { ...personalColumns(body, p), ...(body.billingInfo ? billingColumns(body.billingInfo, p) : {}), searchText: searchTextOf(next) });
    });
    this.changed(row.workspaceId);
    return this.present(c, row);
  }

  /** Ending a treatment needs its end date and reason; reactivating counts against the plan limit. */
  async updateTreatment(c: Caller, patientId: string, body: UpdateTreatment): Promise<Patient> {
    const row = await this.db.transaction(async (tx) => {
      const p = await this.accessible(c, patientId, 'update', 'patient_treatment', tx);
      const status = body.status ?? p.treatmentStatus;
      const changes: Partial<NewPatient> = { ...treatmentColumns(body), treatmentStatus: status, lastActivityAt: new Date() };
      if (status === 'inactive') {
        const endDate = body.endDate !== undefined ? body.endDate : p.treatmentEndDate;
        const endingReason = body.endingReason !== undefined ? body.endingReason : p.treatmentEndingReason;
        if (!endDate || !endingReason) {
          throw new AppError('treatment_end_required', [
            ...(!endDate ? [{ path: 'endDate', message: 'El campo fecha de fin es obligatorio' }] : []),
            ...(!endingReason ? [{ path: 'endingReason', message: 'El campo motivo de finalización es obligatorio' }] : []),
          ]);
        }
        const start = body.startDate !== undefined ? body.startDate : p.treatmentStartDate;
        if (start && endDate < start) throw new AppError('invalid_argument', [{ path: 'endDate', message: 'La fecha de fin debe ser posterior al inicio' }], 'La fecha de fin debe ser posterior al inicio');
        Object.assign(changes, { treatmentEndDate: endDate, treatmentEndingReason: endingReason });
      } else {
        Object.assign(changes, { treatmentEndDate: null, treatmentEndingReason: null });
        if (status === 'active' && p.treatmentStatus !== 'active') {
          await this.workspaces.lockWorkspace(p.workspaceId, tx);
          await this.assertBelowLimit(tx, p.workspaceId, p.assignedTherapistId ?? p.createdBy ?? c.userId);
        }
      }
      return patientsRepository(tx).update(p.id, changes);
    });
    this.changed(row.workspaceId);
    return this.present(c, row);
  }

  async assign(c: Caller, patientId: string, therapistId: string | null): Promise<Patient> {
    const row = await this.db.transaction(async (tx) => {
      const p = await this.accessible(c, patientId, 'update', 'patient_assignment', tx);
      if (therapistId) {
        if (!(await this.workspaces.isMember(p.workspaceId, therapistId, tx))) throw new AppError('therapist_not_member');
        if (p.treatmentStatus === 'active' && therapistId !== p.assignedTherapistId) {
          await this.workspaces.lockWorkspace(p.workspaceId, tx);
          await this.assertBelowLimit(tx, p.workspaceId, therapistId);
        }
      }
      return patientsRepository(tx).update(p.id, { assignedTherapistId: therapistId });
    });
    this.changed(row.workspaceId);
    return this.present(c, row);
  }

  /**
   * Inside the legal retention period (5 years from the end of treatment or the last activity on
   * the file, whichever is later) a patient is blocked, not erased, and the answer says until when.
   */
  async delete(c: Caller, patientId: string, now = new Date()) {
    const out = await this.db.transaction(async (tx) => {
      const p = await this.accessible(c, patientId, 'delete', 'patient_files', tx);
      const retainedUntil = retentionEnd(p);
      if (retainedUntil > now) {
        await patientsRepository(tx).update(p.id, { blockedAt: now, treatmentStatus: 'inactive' });
        const until = retainedUntil.toISOString().slice(0, 10);
        return {
          result: 'blocked' as const,
          retainedUntil: until,
          message: `La ley obliga a conservar la historia clínica 5 años. El paciente queda bloqueado (oculto y sin acceso) y podrá borrarse a partir del ${until.split('-').reverse().join('/')}.`,
        };
      }
      for (const hook of this.erasureHooks) await hook(tx, p);
      await patientsRepository(tx).delete(p.id);
      return { result: 'deleted' as const, retainedUntil: null, message: 'Paciente eliminado definitivamente.' };
    });
    this.changed(c.member.workspaceId);
    return out;
  }

  /** Marks new clinical activity (history, documents): the retention period restarts from it. */
  touch = (patientId: string, tx: DbOrTx = this.db) => patientsRepository(tx).touch(patientId);

  logAccess = (c: Caller, p: Pick<PatientRow, 'id' | 'workspaceId' | 'firstName' | 'lastName'>, action: string, tx: DbOrTx = this.db) =>
    patientsRepository(tx).logAccess({ workspaceId: p.workspaceId, patientId: p.id, patientName: fullName(p), userId: c.userId, action });

  async accessLog(workspaceId: string, patientId: string | undefined, limit: number, before?: string) {
    const rows = await patientsRepository(this.db).accessLog(workspaceId, patientId, limit, before ? new Date(before) : undefined);
    const names = await this.therapistNames(rows.map((r) => r.userId));
    return rows.map((r) => ({
      id: r.id,
      user: { id: r.userId, name: names.get(r.userId) ?? 'Usuario eliminado' },
      patient: { id: r.patientId, name: r.patientName },
      action: r.action,
      createdAt: r.createdAt.toISOString(),
    }));
  }

  /** For the importer: the limit and duplicates are checked by it in its own transaction. */
  insertMany = (rows: NewPatient[], tx: DbOrTx) => patientsRepository(tx).insertMany(rows);
  findDuplicate = (workspaceId: string, email: string | null, taxId: string | null, tx: DbOrTx = this.db) =>
    patientsRepository(tx).findDuplicate(workspaceId, email, taxId);
  existingContacts = (workspaceId: string, emails: string[], taxIds: string[], tx: DbOrTx = this.db) => patientsRepository(tx).existingContacts(workspaceId, emails, taxIds);
  activeCountFor = (workspaceId: string, therapistId: string, tx: DbOrTx = this.db) => patientsRepository(tx).countActiveFor(workspaceId, therapistId);

  private async assertBelowLimit(tx: DbOrTx, workspaceId: string, therapistId: string) {
    const { activePatientLimit } = await this.workspaces.featuresOf(workspaceId, tx);
    if (activePatientLimit !== null && (await patientsRepository(tx).countActiveFor(workspaceId, therapistId)) >= activePatientLimit)
      throw new AppError('patient_limit_reached');
  }

  private async therapistNames(ids: (string | null)[]) {
    const users = await this.users.findManyByIds(ids.filter((x): x is string => !!x));
    return new Map(users.map((u) => [u.id, [u.firstName, u.lastName].filter(Boolean).join(' ')]));
  }

  private async present(c: Caller, p: PatientRow): Promise<Patient> {
    const owner = { ownerId: p.assignedTherapistId };
    const names = await this.therapistNames([p.assignedTherapistId]);
    const [historyEntries, documents] = await Promise.all([patientsRepository(this.db).historyCount(p.id), this.documentCount(p.id)]);
    return {
      ...summary(p, names),
      birthdate: p.birthdate,
      gender: p.gender,
      billingInfo: canOn(c.member.ability, 'read', 'patient_billing', owner)
        ? { fullName: p.billingFullName, taxId: p.billingTaxId, line1: p.billingLine1, line2: p.billingLine2, city: p.billingCity, zipCode: p.billingZipCode, country: p.billingCountry }
        : null,
      treatment: canOn(c.member.ability, 'read', 'patient_treatment', owner)
        ? {
            status: p.treatmentStatus,
            startDate: p.treatmentStartDate,
            endDate: p.treatmentEndDate,
            endingReason: p.treatmentEndingReason,
            motive: p.treatmentMotive,
            sessionType: p.treatmentSessionType,
            medication: p.treatmentMedication,
            referralSource: p.treatmentReferralSource,
            insuranceCompany: p.insuranceCompany,
            insurancePolicy: p.insurancePolicy,
            sessionPrice: p.sessionPrice,
            sessionModality: p.sessionModality,
          }
        : null,
      counts: { historyEntries: canOn(c.member.ability, 'read', 'patient_histories', owner) ? historyEntries : 0, documents: canOn(c.member.ability, 'read', 'patient_documents', owner) ? documents : 0 },
      lastActivityAt: p.lastActivityAt.toISOString(),
      blockedAt: p.blockedAt?.toISOString() ?? null,
    };
  }
}

/** Serialised list pages per workspace (see WorkspaceCache): up to `entries` pages, 32 MB. */
export type PatientListCache = WorkspaceCache<Buffer>;
export const patientListCache = (entries: number): PatientListCache =>
  new WorkspaceCache<Buffer>({ maxEntries: entries, maxSize: 32 * 1024 * 1024, sizeOf: (b) => b.length });

/** A page's key: the workspace's generation, who may see which patients, and the whole query. */
function listKey(workspaceId: string, generation: string, scope: Scope, q: ListQuery): string {
  const who = scope.kind === 'own' ? `own:${scope.ownerId}` : scope.kind;
  const query = [q.q ?? '', q.status ?? '', q.therapistId ?? '', q.sessionType ?? '', q.motive ?? '', q.sort, q.dir, q.page, q.pageSize];
  return `${workspaceId}|${generation}|${who}|${JSON.stringify(query)}`;
}

export function retentionEnd(p: Pick<PatientRow, 'lastActivityAt' | 'treatmentEndDate'>): Date {
  const from = new Date(Math.max(p.lastActivityAt.getTime(), p.treatmentEndDate ? Date.parse(p.treatmentEndDate) : 0));
  from.setUTCFullYear(from.getUTCFullYear() + RETENTION_YEARS);
  return from;
}

function summary(p: PatientRow, names: Map<string, string>): PatientSummary {
  return {
    id: p.id,
    firstName: p.firstName,
    lastName: p.lastName,
    email: p.email,
    phone: p.phone,
    taxId: p.billingTaxId,
    status: p.treatmentStatus,
    motive: p.treatmentMotive,
    sessionType: p.treatmentSessionType,
    assignedTherapist: p.assignedTherapistId ? { id: p.assignedTherapistId, name: names.get(p.assignedTherapistId) ?? '' } : null,
    treatmentStartDate: p.treatmentStartDate,
    createdAt: p.createdAt.toISOString(),
  };
}

const duplicate = (email: string | null | undefined, taxId: string | null) =>
  new AppError('patient_already_exists', [
    ...(email ? [{ path: 'email', message: 'Ya hay un paciente con este email' }] : []),
    ...(taxId ? [{ path: 'billingInfo.taxId', message: 'Ya hay un paciente con este DNI/NIE' }] : []),
  ]);

/** Only the fields present in the body change; `null` clears one. */
function pick<T extends object, K extends keyof T>(body: T, key: K, current: unknown) {
  return body[key] !== undefined ? body[key] : current;
}

function personalColumns(b: Partial<CreatePatientBody & UpdateInfo>, cur?: PatientRow) {
  return {
    firstName: (pick(b, 'firstName', cur?.firstName) as string) ?? '',
    lastName: pick(b, 'lastName', cur?.lastName ?? null) as string | null,
    email: pick(b, 'email', cur?.email ?? null) as string | null,
    phone: pick(b, 'phone', cur?.phone ?? null) as string | null,
    birthdate: pick(b, 'birthdate', cur?.birthdate ?? null) as string | null,
    gender: pick(b, 'gender', cur?.gender ?? null) as string | null,
  };
}

function billingColumns(b: Create['billingInfo'] | undefined, cur?: PatientRow) {
  const v: Partial<NonNullable<Create['billingInfo']>> = b ?? {};
  return {
    billingFullName: pick(v, 'fullName', cur?.billingFullName ?? null) as string | null,
    billingTaxId: pick(v, 'taxId', cur?.billingTaxId ?? null) as string | null,
    billingLine1: pick(v, 'line1', cur?.billingLine1 ?? null) as string | null,
    billingLine2: pick(v, 'line2', cur?.billingLine2 ?? null) as string | null,
    billingCity: pick(v, 'city', cur?.billingCity ?? null) as string | null,
    billingZipCode: pick(v, 'zipCode', cur?.billingZipCode ?? null) as string | null,
    billingCountry: pick(v, 'country', cur?.billingCountry ?? null) as string | null,
  };
}

function treatmentColumns(t: Partial<UpdateTreatment>): Partial<NewPatient> {
  const out: Partial<NewPatient> = {};
  const map = {
    startDate: 'treatmentStartDate',
    motive: 'treatmentMotive',
    sessionType: 'treatmentSessionType',
    medication: 'treatmentMedication',
    referralSource: 'treatmentReferralSource',
    insuranceCompany: 'insuranceCompany',
    insurancePolicy: 'insurancePolicy',
    sessionPrice: 'sessionPrice',
    sessionModality: 'sessionModality',
  } as const;
  for (const [k, col] of Object.entries(map)) {
    const v = (t as Record<string, unknown>)[k];
    if (v !== undefined) (out as Record<string, unknown>)[col] = v;
  }
  return out;
}
