import {
  canOn,
  daysBetween,
  MODALITY,
  type Modality,
  type Session,
  sessionErrorMessages,
  sessionFee,
  shiftDay,
  formatDayEs,
  toLocal,
} from '@divan/core';
import { expandSeries, planSeriesCancel, planSeriesEdit, type SeriesEditPlan } from '@divan/core/series';
import type { z } from 'zod';
import type { cancelSessionBody, createSessionBody, updateSessionBody } from '@divan/core';
import type { Db, Tx } from '../../../platform/db/database';
import { AppError } from '../../../platform/errors';
import type { Emit, EventBus } from '../../../platform/events/event-bus';
import type { Caller } from '../../../platform/auth/caller';
import type { PatientsService } from '../../patients/patients.service';
import type { WorkspacesService } from '../../workspaces/workspaces.service';
import { defaultReminders } from '../reminders/reminder-defaults';
import { assertPatientActive, assertWritable, checkReminders, sessionTimes } from '../session-rules';
import { asAppError, changeOf, definitionOf, fieldsOf, isFrozen, seriesColumns, storedOf, type Definition } from './session-series.model';
import { sessionSeriesRepository } from './session-series.repository';
import type { SeriesFields } from './session-series.tables';
import { sessionsRepository } from '../sessions.repository';
import {
  assertOwnsAll,
  conflictsOver,
  emitCreated,
  occurrenceValues,
  pickPayment,
  seriesRefusal,
  termsCache,
} from './session-series.writes';
import type { SessionWrite, SessionsService } from '../sessions.service';
import type { NewSession, SessionRow } from '../sessions.tables';

type Create = z.output<typeof createSessionBody>;
type Update = z.output<typeof updateSessionBody>;
type Cancel = z.output<typeof cancelSessionBody>;
type Plan = SeriesEditPlan<SeriesFields>;

export type SeriesCreate = SessionWrite & { series?: { id: string; count: number } };
export type SeriesUpdate = SessionWrite & { updated: number; removed: number };
export type SeriesCancel = { session: Session; canceled: number };
/** Which of these sessions have a clinical note (given by the history, wired in app.ts). */
export type HasNotes = (workspaceId: string, sessionIds: string[]) => Promise<Set<string>>;

/** Besides SESSION_EVENTS: a series edit deletes occurrences no longer in its pattern. */
export const SERIES_EVENTS = ['session.deleted'] as const;

/** What a series edit changes for every occurrence in its scope (the rest, payment, is the chosen session's own). */
const SERIES_KEYS = [
  'day',
  'from',
  'to',
  'timeZone',
  'therapistId',
  'price',
  'modality',
  'locationId',
  'reminders',
  'videoConference',
] as const;
const isModality = (v: unknown): v is Modality => (MODALITY.values as unknown[]).includes(v);
const iso = (d: Date) => d.toISOString();

/**
 * Recurring series of sessions (spec §3): created with all their occurrences at once; edited or
 * canceled for one occurrence, it and the following, or all. The plan comes from @divan/core/series;
 * this applies it in one transaction, with every changed session's usual event.
 *
 * Decisions:
 * - "Only this one" is a plain session edit: the occurrence stays in its series (same index and
 *   original day); what differs from the series is read from the row itself.
 * - "All" and "this and following" never rewrite history: they apply from the first occurrence not yet
 *   started (the series is split there when it is not the first). Completed, canceled or started
 *   occurrences are never moved, changed or deleted by a series edit: when their day leaves the new
 *   pattern they are detached from the series and stay as single sessions.
 * - An occurrence still pending that is paid, invoiced or has its clinical note is never deleted: the
 *   edit that would delete it is refused (series_session_protected), naming its day.
 * - Payment fields (status, type, invoiced, charge date) belong to one session: with a series scope
 *   they apply to the chosen one only; on create, to the first.
 * - Cancel "following"/"all" cancels the pending ones not yet started (the chosen one too, for
 *   "following"); the definition does not change.
 */
export class SessionSeriesService {
  constructor(
    private readonly db: Db,
    private readonly sessions: SessionsService,
    private readonly patients: PatientsService,
    private readonly workspaces: WorkspacesService,
    private readonly events: EventBus,
    private readonly hasNotes: HasNotes = async () => new Set(),
  ) {}

  async create(c: Caller, body: Create, now = new Date()): Promise<SeriesCreate> {
    const { recurrence, ...single } = body;
    if (!recurrence) return this.sessions.create(c, single, now);
    const ws = c.member.workspaceId;
    const therapistId = body.therapistId ?? c.userId;
    if (!canOn(c.member.ability, 'create', 'sessions', { ownerId: therapistId })) throw new AppError('access_denied');
    assertWritable(c, single, { ownerId: therapistId }, 'create');
    const { startsAt, endsAt, timeZone } = sessionTimes(body, now);
    const { rows, seriesId, conflicts } = await this.events.transaction(this.db, async (tx, emit) => {
      const patient = await this.patients.accessible(c, body.patientId, 'read', 'patient_files', tx);
      assertPatientActive(patient);
      const terms = await this.sessions.therapistTerms(ws, therapistId, tx);
      await this.sessions.assertLocation(ws, body.locationId, tx);
      const maxReminders = (await this.workspaces.featuresOf(ws, tx)).sessionReminders;
      checkReminders(body.reminders, maxReminders);
      const price = body.price ?? patient.sessionPrice ?? 0;
      const modality = body.modality ?? (isModality(patient.sessionModality) ? patient.sessionModality : 'presential');
      const fields: SeriesFields = {
        therapistId,
        price,
        modality,
        locationId: body.locationId ?? null,
        reminders: body.reminders ?? (await defaultReminders(tx, ws, therapistId, maxReminders)),
        videoConference: body.videoConference !== undefined ? body.videoConference : modality === 'online' ? 'own' : null,
      };
      const def: Definition = {
        frequency: recurrence.frequency,
        startDay: body.day,
        startTime: body.from,
        durationMinutes: Math.round((endsAt.getTime() - startsAt.getTime()) / 60_000),
        tz: timeZone,
        ...(recurrence.monthlyWeek !== undefined ? { monthlyWeek: recurrence.monthlyWeek } : {}),
        end: recurrence.end,
        fields,
      };
      const occurrences = (() => {
        try {
          return expandSeries(def);
        } catch (err) {
          return asAppError(err);
        }
      })();
      const repo = sessionSeriesRepository(tx);
      const series = await repo.insert({ workspaceId: ws, patientId: patient.id, createdBy: c.userId, ...seriesColumns(def) });
      const paymentStatus = body.paymentStatus ?? 'pending';
      const payment = {
        paymentStatus,
        paymentType: body.paymentType ?? null,
        paidAt: paymentStatus === 'paid' ? now : null,
        invoiced: body.invoiced ?? false,
        chargeDate: body.chargeDate ?? null,
      };
      const rows = await repo.insertSessions(
        occurrences.map((o) => ({
          ...occurrenceValues(c, patient.id, series.id, timeZone, { ...o, originalDay: o.day, fields }, terms),
          ...(o.index === 0 ? payment : {}),
        })),
      );
      for (const r of rows) emitCreated(emit, r);
      return { rows, seriesId: series.id, conflicts: await conflictsOver(this.sessions, rows, tx) };
    });
    const first = rows.find((r) => r.seriesIndex === 0)!;
    return { session: await this.sessions.read(c, first.id), conflicts, series: { id: seriesId, count: rows.length } };
  }

  async update(c: Caller, sessionId: string, body: Update, now = new Date()): Promise<SeriesUpdate> {
    const { scope = 'this', recurrence, ...single } = body;
    const before = await this.sessions.accessible(c, sessionId, 'update');
    // Outside a series the scope (and a recurrence) mean nothing; nor does it for what belongs to one session (payment): a plain edit.
    const seriesWide = recurrence !== undefined || SERIES_KEYS.some((k) => single[k] !== undefined);
    if (scope === 'this' || !before.seriesId || !seriesWide) {
      const res = await this.sessions.update(c, sessionId, single, now);
      return { ...res, updated: res.session.updatedAt === iso(before.updatedAt) ? 0 : 1, removed: 0 };
    }
    // Read before the transaction: the history is another module, on its own connection.
    const noted = await this.hasNotes(
      before.workspaceId,
      (await sessionSeriesRepository(this.db).occurrences(before.seriesId)).map((r) => r.id),
    );
    const res = await this.events.transaction(this.db, async (tx, emit) => {
      const s = await this.sessions.accessible(c, sessionId, 'update', tx);
      assertWritable(c, single, { ownerId: s.therapistId }, 'update');
      const series = s.seriesId ? await sessionSeriesRepository(tx).lock(s.workspaceId, s.seriesId) : undefined;
      if (!series)
        throw new AppError(
          'invalid_series',
          [{ path: 'scope', message: sessionErrorMessages.notInSeries }],
          sessionErrorMessages.notInSeries,
        );
      const def = definitionOf(series);
      const rows = await sessionSeriesRepository(tx).occurrences(series.id);
      const chosen = rows.find((r) => r.id === s.id)!;
      // History is never rewritten: from the first occurrence not yet started (or the chosen one, when later).
      const firstOpen = rows.find((r) => r.startsAt.getTime() > now.getTime())?.seriesIndex;
      if (firstOpen === undefined || firstOpen === null)
        throw seriesRefusal('Todas las sesiones de esta serie ya han empezado: cámbialas una a una.');
      const from = Math.max(scope === 'all' ? 0 : chosen.seriesIndex!, firstOpen);
      const fromRow = rows.find((r) => r.seriesIndex === from);
      if (!fromRow) throw seriesRefusal('Esa sesión no pertenece a la serie.');
      // A new day moves the pattern by as many days as the chosen occurrence moves.
      const shift = single.day !== undefined ? daysBetween(toLocal(chosen.startsAt, def.tz).day, single.day) : 0;
      const change = changeOf(
        { ...single, recurrence },
        shift ? shiftDay(fromRow.seriesOriginalDay!, shift) : undefined,
        def.fields!.videoConference,
      );
      let plan: Plan;
      try {
        plan = planSeriesEdit({
          scope: from === 0 ? 'all' : 'following',
          series: def,
          existing: rows.map((r) => storedOf(def, r, now)),
          index: from,
          change,
        });
      } catch (err) {
        return asAppError(err);
      }
      return this.apply(c, tx, emit, { series, rows, chosen, plan, body: single, noted, now });
    });
    return { session: await this.sessions.read(c, res.sessionId), conflicts: res.conflicts, updated: res.updated, removed: res.removed };
  }

  async cancel(c: Caller, sessionId: string, body: Cancel, now = new Date()): Promise<SeriesCancel> {
    const scope = body.scope ?? 'this';
    const before = await this.sessions.accessible(c, sessionId, 'update');
    if (scope === 'this' || !before.seriesId) {
      const session = await this.sessions.cancel(c, sessionId, body.reason, now);
      return { session, canceled: before.status === 'canceled' ? 0 : 1 };
    }
    const canceled = await this.events.transaction(this.db, async (tx, emit) => {
      const s = await this.sessions.accessible(c, sessionId, 'update', tx);
      const series = s.seriesId ? await sessionSeriesRepository(tx).lock(s.workspaceId, s.seriesId) : undefined;
      if (!series) return 0;
      const def = definitionOf(series);
      const rows = await sessionSeriesRepository(tx).occurrences(series.id);
      const byIndex = new Map(rows.map((r) => [r.seriesIndex!, r]));
      const plan = planSeriesCancel({ scope, series: def, existing: rows.map((r) => storedOf(def, r, now)), index: s.seriesIndex! });
      const targets = plan.update
        .map((u) => byIndex.get(u.fromIndex)!)
        // Completed ones stay completed; started ones are history (the chosen one too for "all").
        .filter((r) => r.status === 'pending' && (r.startsAt.getTime() > now.getTime() || (scope === 'following' && r.id === s.id)));
      assertOwnsAll(c, targets);
      for (const r of targets) {
        await sessionsRepository(tx).update(r.id, {
          status: 'canceled',
          cancellationReason: body.reason,
          canceledAt: now,
          completedAt: null,
        });
        emit('session.canceled', {
          workspaceId: r.workspaceId,
          sessionId: r.id,
          patientId: r.patientId,
          therapistId: r.therapistId,
          startsAt: iso(r.startsAt),
          canceledBy: body.reason === 'therapist' ? 'therapist' : 'patient',
          reason: body.reason,
        });
      }
      return targets.length;
    });
    return { session: await this.sessions.read(c, sessionId), canceled };
  }

  /** Writes a series edit's plan: the series (and the split one), deletions, detachments, updates and new occurrences. */
  private async apply(
    c: Caller,
    tx: Tx,
    emit: Emit,
    x: {
      series: { id: string; workspaceId: string; patientId: string };
      rows: SessionRow[];
      chosen: SessionRow;
      plan: Plan;
      body: Omit<Update, 'scope' | 'recurrence'>;
      noted: Set<string>;
      now: Date;
    },
  ) {
    const { series, rows, chosen, plan, body, noted, now } = x;
    const ws = series.workspaceId;
    const byIndex = new Map(rows.map((r) => [r.seriesIndex!, r]));
    const removed = plan.remove.map((o) => byIndex.get(o.index)!);
    const updated = plan.update.map((u) => ({ u, row: byIndex.get(u.fromIndex)! }));
    assertOwnsAll(c, [...removed, ...updated.map((x) => x.row)]);
    for (const def of [plan.series, plan.newSeries]) {
      const therapistId = def?.fields?.therapistId;
      if (therapistId && !canOn(c.member.ability, 'update', 'sessions', { ownerId: therapistId })) throw new AppError('access_denied');
    }
    const newFields = (plan.newSeries ?? plan.series).fields!;
    if (plan.create.length) {
      if (!canOn(c.member.ability, 'create', 'sessions', { ownerId: newFields.therapistId })) throw new AppError('access_denied');
      assertPatientActive(await this.patients.accessible(c, series.patientId, 'read', 'patient_files', tx));
    }
    if (body.locationId !== undefined) await this.sessions.assertLocation(ws, body.locationId, tx);
    if (body.reminders !== undefined) checkReminders(body.reminders, (await this.workspaces.featuresOf(ws, tx)).sessionReminders);

    // Deleting is for plain future occurrences only; what has money or a note on it is never lost silently.
    const detach = removed.filter((r) => isFrozen(r, now));
    const drop = removed.filter((r) => !isFrozen(r, now));
    const kept = drop.find((r) => r.paymentStatus !== 'pending' || r.invoiced || noted.has(r.id));
    if (kept) {
      const message = `La sesión del ${formatDayEs(toLocal(kept.startsAt, kept.timeZone).day)} está pagada, facturada o tiene nota y dejaría de estar en la serie: cámbiala o cancélala antes de cambiar la serie.`;
      throw new AppError('series_session_protected', [{ path: 'recurrence', message }], message);
    }

    const repo = sessionSeriesRepository(tx);
    await repo.clearIndexes([...updated.map((x) => x.row.id), ...detach.map((r) => r.id)]);
    await repo.update(series.id, seriesColumns(plan.series));
    const newSeries =
      plan.newSeries &&
      (await repo.insert({ workspaceId: ws, patientId: series.patientId, createdBy: c.userId, ...seriesColumns(plan.newSeries) }));
    const seriesOf = (tag: 'current' | 'new') =>
      tag === 'new' ? { id: newSeries!.id, tz: plan.newSeries!.tz! } : { id: series.id, tz: plan.series.tz! };

    await repo.deleteSessions(drop.map((r) => r.id));
    for (const r of drop)
      emit('session.deleted', {
        workspaceId: ws,
        sessionId: r.id,
        patientId: r.patientId,
        therapistId: r.therapistId,
        startsAt: iso(r.startsAt),
      });
    for (const r of detach) {
      const row = await sessionsRepository(tx).update(r.id, { seriesId: null, seriesIndex: null, seriesOriginalDay: null });
      this.sessions.emitUpdated(emit, row, false);
    }

    const terms = termsCache(this.sessions, ws, tx);
    const written: SessionRow[] = [];
    for (const { u, row } of updated) {
      const to = seriesOf(u.series);
      const bookkeeping = { seriesId: to.id, seriesIndex: u.index, seriesOriginalDay: u.originalDay };
      let values: Partial<NewSession> = bookkeeping;
      if (!isFrozen(row, now)) {
        const f = { ...fieldsOf(row), ...u.fields };
        values = { ...bookkeeping, ...f, startsAt: u.start, endsAt: u.end, timeZone: to.tz };
        if (f.therapistId !== row.therapistId || f.price !== row.price) {
          const t = await terms(f.therapistId);
          Object.assign(values, { fee: sessionFee(f.price, t.commission), paymentsReceiver: t.paymentsReceiver });
        }
      }
      const after = await sessionsRepository(tx).update(row.id, values);
      written.push(after);
      this.sessions.emitUpdated(
        emit,
        after,
        after.startsAt.getTime() !== row.startsAt.getTime() || after.endsAt.getTime() !== row.endsAt.getTime(),
      );
    }
    const created = await repo.insertSessions(
      await Promise.all(
        plan.create.map(async (o) => {
          const to = seriesOf(o.series);
          const f = { ...newFields, ...o.fields } as SeriesFields;
          return occurrenceValues(c, series.patientId, to.id, to.tz, { ...o, fields: f }, await terms(f.therapistId));
        }),
      ),
    );
    for (const r of created) emitCreated(emit, r);
    written.push(...created);

    // The chosen occurrence (or what took its place) is what the caller reads back; payment fields are its own.
    const gone = drop.some((r) => r.id === chosen.id);
    const chosenAfter = gone
      ? (written.find((r) => r.seriesId === series.id && r.seriesIndex === chosen.seriesIndex) ?? written[0])
      : chosen;
    const payment = pickPayment(body, chosenAfter, now);
    if (chosenAfter && payment) {
      const row = await sessionsRepository(tx).update(chosenAfter.id, payment);
      this.sessions.emitUpdated(emit, row, false);
    }
    return {
      sessionId: chosenAfter?.id ?? chosen.id,
      conflicts: await conflictsOver(this.sessions, written, tx),
      updated: updated.length + created.length,
      removed: drop.length + detach.length,
    };
  }
}
