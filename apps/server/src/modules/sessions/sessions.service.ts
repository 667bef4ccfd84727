import {
  MODALITY,
  SESSION_LIST_MAX,
  canOn,
  scopeFor,
  sessionFee,
  sessionMessages,
  todayIn,
  type Action,
  type CancellationReason,
  type Modality,
  type PaymentType,
  type Session,
  type SessionConflict,
  type SessionGrid,
  type SessionListQuery,
} from '@divan/core';
import type { z } from 'zod';
import type { createSessionBody, updateSessionBody } from '@divan/core';
import type { Db, DbOrTx, Tx } from '../../platform/db/database';
import type { ReadRouting } from '../../platform/db/read-routing';
import { AppError } from '../../platform/errors';
import type { Emit, EventBus } from '../../platform/events/event-bus';
import type { Caller } from '../../platform/auth/caller';
import type { PatientsService } from '../patients/patients.service';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { assertPatientActive, assertWritable, checkedRange, checkReminders, sessionTimes } from './session-rules';
import { defaultReminders } from './reminders/reminder-defaults';
import {
  presentConflicts,
  presentGrid,
  presentSession,
  presentSessionsInSlices,
  type SessionNames,
  type SessionView,
} from './session-presenter';
import { locationsRepository, sessionsRepository, type SessionWithLocation } from './sessions.repository';
import type { NewSession, SessionRow } from './sessions.tables';

/** What the calendar hears live: members' sockets get these as `workspace-event` frames (ids only) and read again. */
export const SESSION_EVENTS = ['session.created', 'session.updated', 'session.canceled', 'session.completed'] as const;

type Create = z.output<typeof createSessionBody>;
type Update = z.output<typeof updateSessionBody>;
export type SessionWrite = { session: Session; conflicts: SessionConflict[] };
/** Session id → its note's entry id (null: someone else's private entry) for the sessions that have one. */
export type NotesOf = (workspaceId: string, sessionIds: string[], viewerId: string) => Promise<Map<string, string | null>>;

const isModality = (v: unknown): v is Modality => (MODALITY.values as unknown[]).includes(v);
const instantOf = (d: Date) => d.toISOString();

/** A range read's checked bounds, filters and the sessions the caller reads (list and grid alike). */
function rangeOf(c: Caller, q: SessionListQuery) {
  const { start, end } = checkedRange(q.from, q.to);
  const scope = scopeFor(c.member.ability, 'read', 'sessions', c.userId);
  const filter = { from: start, to: end, therapistId: q.therapistId, patientId: q.patientId, status: q.status, limit: SESSION_LIST_MAX };
  return { scope, filter };
}

/**
 * Sessions of spec §3: a patient's appointment with a therapist. "Is owner" is the therapist: a
 * clinic's Terapeuta reads and edits their own (a WHERE on the therapist), Recepción all of them
 * without the clinical fields (SESSION_FIELDS). Overlaps are returned as warnings, never refused.
 * Every committed change is a `session.*` event (packages/core/src/events.ts).
 */
export class SessionsService {
  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
    private readonly users: UsersService,
    private readonly workspaces: WorkspacesService,
    private readonly events: EventBus,
    /** Where the calendar's range reads go: the read replica once it has caught up (platform/db/read-routing.ts); default the primary. */
    private readonly reads?: Pick<ReadRouting, 'reader'>,
  ) {}

  private reader(): Promise<Db> {
    return this.reads ? this.reads.reader() : Promise.resolve(this.db);
  }

  async list(c: Caller, q: SessionListQuery): Promise<{ items: Session[] }> {
    const { scope, filter } = rangeOf(c, q);
    const rows = await sessionsRepository(await this.reader()).range(c.member.workspaceId, scope, filter);
    return { items: await presentSessionsInSlices(c.member.ability, await this.named(c.member.workspaceId, rows, c)) };
  }

  /** The same range read as the calendar grid's columns (core's session-grid): what a box draws, each name once. */
  async grid(c: Caller, q: SessionListQuery): Promise<SessionGrid> {
    const { scope, filter } = rangeOf(c, q);
    const rows = await sessionsRepository(await this.reader()).gridRange(c.member.workspaceId, scope, filter);
    return presentGrid(c.member.ability, rows, await this.lookups(c.member.workspaceId, rows, c));
  }

  /**
   * The session if the caller may do `action` on it; 404 otherwise when they may not read it, so a
   * therapist restricted to their own sessions learns nothing of the others'.
   */
  async accessible(
    c: Caller,
    sessionId: string,
    action: Exclude<Action, 'manage'> = 'read',
    tx: DbOrTx = this.db,
  ): Promise<SessionWithLocation> {
    const scope = scopeFor(c.member.ability, 'read', 'sessions', c.userId);
    const s = await sessionsRepository(tx).find(c.member.workspaceId, sessionId, scope);
    if (!s) throw new AppError('therapy_session_not_found');
    if (!canOn(c.member.ability, action, 'sessions', { ownerId: s.therapistId })) throw new AppError('access_denied');
    return s;
  }

  async get(c: Caller, sessionId: string): Promise<Session> {
    const [s] = await this.named(c.member.workspaceId, [await this.accessible(c, sessionId)], c);
    return presentSession(c.member.ability, s!);
  }

  async create(c: Caller, body: Create, now = new Date()): Promise<SessionWrite> {
    const ws = c.member.workspaceId;
    const therapistId = body.therapistId ?? c.userId;
    // Someone who books only their own sessions books them for themselves.
    if (!canOn(c.member.ability, 'create', 'sessions', { ownerId: therapistId })) throw new AppError('access_denied');
    assertWritable(c, body, { ownerId: therapistId }, 'create');
    const { startsAt, endsAt, timeZone } = sessionTimes(body, now);
    const { row, conflicts } = await this.events.transaction(this.db, async (tx, emit) => {
      const patient = await this.patients.accessible(c, body.patientId, 'read', 'patient_files', tx);
      assertPatientActive(patient);
      const terms = await this.therapistTerms(ws, therapistId, tx);
      await this.assertLocation(ws, body.locationId, tx);
      const maxReminders = (await this.workspaces.featuresOf(ws, tx)).sessionReminders;
      checkReminders(body.reminders, maxReminders);
      const price = body.price ?? patient.sessionPrice ?? 0;
      const modality = body.modality ?? (isModality(patient.sessionModality) ? patient.sessionModality : 'presential');
      const paymentStatus = body.paymentStatus ?? 'pending';
      const values: NewSession = {
        workspaceId: ws,
        patientId: patient.id,
        therapistId,
        startsAt,
        endsAt,
        timeZone,
        price,
        fee: sessionFee(price, terms.commission),
        paymentsReceiver: terms.paymentsReceiver,
        paymentStatus,
        paymentType: body.paymentType ?? null,
        paidAt: paymentStatus === 'paid' ? now : null,
        modality,
        locationId: body.locationId ?? null,
        // None given: the therapist's defaults (settings `notifications`), capped by the plan.
        reminders: body.reminders ?? (await defaultReminders(tx, ws, therapistId, maxReminders)),
        invoiced: body.invoiced ?? false,
        chargeDate: body.chargeDate ?? null,
        videoConference: body.videoConference !== undefined ? body.videoConference : modality === 'online' ? 'own' : null,
        createdBy: c.userId,
      };
      const created = await sessionsRepository(tx).insert(values);
      emit('session.created', {
        workspaceId: ws,
        sessionId: created.id,
        patientId: created.patientId,
        therapistId,
        startsAt: instantOf(startsAt),
        endsAt: instantOf(endsAt),
      });
      return { row: created, conflicts: await this.conflictsOf(created, tx) };
    });
    return { session: await this.read(c, row.id), conflicts };
  }

  /** Moves the session or changes its fields; a new therapist or price recomputes the fee and receiver. */
  async update(c: Caller, sessionId: string, body: Update, now = new Date()): Promise<SessionWrite> {
    const { row, conflicts } = await this.events.transaction(this.db, async (tx, emit) => {
      const s = await this.accessible(c, sessionId, 'update', tx);
      assertWritable(c, body, { ownerId: s.therapistId }, 'update');
      const therapistId = body.therapistId ?? s.therapistId;
      // A therapist restricted to their own sessions cannot hand one to someone else.
      if (therapistId !== s.therapistId && !canOn(c.member.ability, 'update', 'sessions', { ownerId: therapistId }))
        throw new AppError('access_denied');
      const changes: Partial<NewSession> = {};
      if (body.day !== undefined && body.from !== undefined && body.to !== undefined) {
        Object.assign(changes, sessionTimes({ day: body.day, from: body.from, to: body.to, timeZone: body.timeZone ?? s.timeZone }, now));
      }
      if (body.price !== undefined) changes.price = body.price;
      if (therapistId !== s.therapistId || body.price !== undefined) {
        const terms = await this.therapistTerms(s.workspaceId, therapistId, tx);
        Object.assign(changes, {
          therapistId,
          fee: sessionFee(changes.price ?? s.price, terms.commission),
          paymentsReceiver: terms.paymentsReceiver,
        });
      }
      if (body.locationId !== undefined) {
        await this.assertLocation(s.workspaceId, body.locationId, tx);
        changes.locationId = body.locationId;
      }
      if (body.reminders !== undefined) {
        checkReminders(body.reminders, (await this.workspaces.featuresOf(s.workspaceId, tx)).sessionReminders);
        changes.reminders = body.reminders;
      }
      if (body.modality !== undefined) {
        changes.modality = body.modality;
        if (body.videoConference === undefined) changes.videoConference = body.modality === 'online' ? (s.videoConference ?? 'own') : null;
      }
      if (body.videoConference !== undefined) changes.videoConference = body.videoConference;
      if (body.paymentStatus !== undefined) {
        changes.paymentStatus = body.paymentStatus;
        changes.paidAt = body.paymentStatus === 'paid' ? (s.paidAt ?? now) : null;
      }
      if (body.paymentType !== undefined) changes.paymentType = body.paymentType;
      if (body.invoiced !== undefined) changes.invoiced = body.invoiced;
      if (body.chargeDate !== undefined) changes.chargeDate = body.chargeDate;
      // Nothing to change: no write, no event.
      if (!Object.keys(changes).length) return { row: s, conflicts: s.status === 'canceled' ? [] : await this.conflictsOf(s, tx) };
      const updated = await sessionsRepository(tx).update(s.id, changes);
      const rescheduled = updated.startsAt.getTime() !== s.startsAt.getTime() || updated.endsAt.getTime() !== s.endsAt.getTime();
      this.emitUpdated(emit, updated, rescheduled);
      return { row: updated, conflicts: updated.status === 'canceled' ? [] : await this.conflictsOf(updated, tx) };
    });
    return { session: await this.read(c, row.id), conflicts };
  }

  /** Cancels with a reason (no-shows and late cancellations count apart); canceling again changes the reason. */
  async cancel(c: Caller, sessionId: string, reason: CancellationReason, now = new Date()): Promise<Session> {
    const row = await this.events.transaction(this.db, async (tx, emit) => {
      const s = await this.accessible(c, sessionId, 'update', tx);
      const updated = await sessionsRepository(tx).update(s.id, {
        status: 'canceled',
        cancellationReason: reason,
        canceledAt: s.canceledAt ?? now,
        completedAt: null,
      });
      if (s.status !== 'canceled')
        emit('session.canceled', {
          workspaceId: s.workspaceId,
          sessionId: s.id,
          patientId: s.patientId,
          therapistId: s.therapistId,
          startsAt: instantOf(s.startsAt),
          canceledBy: reason === 'therapist' ? 'therapist' : 'patient',
          reason,
        });
      return updated;
    });
    return this.read(c, row.id);
  }

  async complete(c: Caller, sessionId: string, now = new Date()): Promise<Session> {
    const row = await this.events.transaction(this.db, async (tx, emit) => {
      const s = await this.accessible(c, sessionId, 'update', tx);
      if (s.status === 'canceled') throw new AppError('invalid_argument', undefined, sessionMessages.notCompletable());
      if (s.status === 'completed') return s;
      const updated = await sessionsRepository(tx).update(s.id, { status: 'completed', completedAt: now });
      emit('session.completed', { workspaceId: s.workspaceId, sessionId: s.id, patientId: s.patientId, therapistId: s.therapistId });
      await this.completedHook?.(tx, updated);
      return updated;
    });
    return this.read(c, row.id);
  }

  /** Marks the session paid with how; the charge date defaults to today in the session's zone. */
  async markPaid(
    c: Caller,
    sessionId: string,
    body: { paymentType: PaymentType; chargeDate?: string | null },
    now = new Date(),
  ): Promise<Session> {
    const row = await this.events.transaction(this.db, async (tx, emit) => {
      const s = await this.accessible(c, sessionId, 'update', tx);
      const updated = await sessionsRepository(tx).update(s.id, {
        paymentStatus: 'paid',
        paymentType: body.paymentType,
        paidAt: s.paidAt ?? now,
        chargeDate: body.chargeDate ?? s.chargeDate ?? todayIn(s.timeZone, now),
      });
      this.emitUpdated(emit, updated, false);
      return updated;
    });
    return this.read(c, row.id);
  }

  emitUpdated(emit: Emit, s: SessionRow, rescheduled: boolean) {
    emit('session.updated', {
      workspaceId: s.workspaceId,
      sessionId: s.id,
      patientId: s.patientId,
      therapistId: s.therapistId,
      startsAt: instantOf(s.startsAt),
      endsAt: instantOf(s.endsAt),
      rescheduled,
    });
  }

  /** The therapist's commission and payments receiver; 400 when they are not a member of the workspace. */
  async therapistTerms(workspaceId: string, therapistId: string, tx: DbOrTx) {
    const terms = await this.workspaces.memberTerms(workspaceId, therapistId, tx);
    if (!terms)
      throw new AppError('therapist_not_member', [{ path: 'therapistId', message: 'La persona elegida no es miembro de este espacio' }]);
    return terms;
  }

  async assertLocation(workspaceId: string, locationId: string | null | undefined, tx: DbOrTx) {
    if (locationId && !(await locationsRepository(tx).find(workspaceId, locationId)))
      throw new AppError('location_not_found', [{ path: 'locationId', message: 'Ubicación no encontrada' }]);
  }

  async conflictsOf(s: SessionRow, tx: Tx): Promise<SessionConflict[]> {
    const others = await sessionsRepository(tx).overlapping(s.workspaceId, s.startsAt, s.endsAt, s.therapistId, s.locationId, s.id);
    return presentConflicts(s, others);
  }

  /** After a write: the session as the caller reads it (a therapist who handed it over may no longer read it all). */
  async read(c: Caller, id: string): Promise<Session> {
    const [s] = await this.named(
      c.member.workspaceId,
      [(await sessionsRepository(this.db).find(c.member.workspaceId, id, { kind: 'all' }))!],
      c,
    );
    return presentSession(c.member.ability, s!);
  }

  /** Rows read elsewhere in this module (a patient's sessions), as the member reads them. */
  async present(c: Caller, rows: SessionWithLocation[]): Promise<Session[]> {
    return (await this.named(c.member.workspaceId, rows, c)).map((s) => presentSession(c.member.ability, s));
  }

  /** Which sessions have their clinical note: given by the history (app.ts), which this module does not know. */
  readNotesWith(notesOf: NotesOf) {
    this.notesOf = notesOf;
  }
  private notesOf?: NotesOf;

  /** Work that must follow a completion, in its transaction (automatic invoices enqueue their job): see SessionInvoicing. */
  whenCompleted(hook: (tx: Tx, s: SessionRow) => Promise<void>) {
    this.completedHook = hook;
  }
  private completedHook?: (tx: Tx, s: SessionRow) => Promise<void>;

  /** Sessions with their patient's and therapist's names (and, for a reader of clinical history, their notes). */
  private async named(workspaceId: string, rows: SessionWithLocation[], c?: Caller): Promise<SessionView[]> {
    const names = await this.lookups(workspaceId, rows, c);
    return rows.map((s) => ({
      ...s,
      patientName: names.patient(s.patientId),
      therapistName: names.therapist(s.therapistId),
      note: names.note(s.id),
    }));
  }

  /** The names a range read shows, each looked up once; the notes only for a reader of clinical history. */
  private async lookups(
    workspaceId: string,
    rows: Pick<SessionRow, 'id' | 'patientId' | 'therapistId'>[],
    c?: Caller,
  ): Promise<SessionNames> {
    const readsNotes = c && this.notesOf && c.member.ability.can('read', 'patient_histories');
    const [patients, therapists, notes] = await Promise.all([
      this.patients.namesOf(workspaceId, [...new Set(rows.map((s) => s.patientId))]),
      this.users.namesByIds(rows.map((s) => s.therapistId)),
      readsNotes
        ? this.notesOf!(
            workspaceId,
            rows.map((s) => s.id),
            c.userId,
          )
        : undefined,
    ]);
    const names = new Map(therapists.map((u) => [u.id, [u.firstName, u.lastName].filter(Boolean).join(' ')]));
    return {
      patient: (id) => patients.get(id) ?? '',
      therapist: (id) => names.get(id) ?? 'Usuario eliminado',
      note: (id) => (notes ? { exists: notes.has(id), id: notes.get(id) ?? null } : undefined),
    };
  }
}
