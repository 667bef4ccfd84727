import { MEASURE_SCHEDULE_HOURS_BEFORE, type MeasureCadence, type MeasureKey, type MeasureSchedule } from '@divan/core';
import type { Caller } from '../../platform/auth/caller';
import type { Db } from '../../platform/db/database';
import { isUniqueViolation } from '../../platform/db/pg-errors';
import { AppError } from '../../platform/errors';
import type { Jobs } from '../../platform/jobs/jobs';
import type { PatientsService } from '../patients/patients.service';
import type { UpcomingSession } from '../sessions/upcoming-sessions.queries';
import { measureSchedulesRepository } from './measure-schedules.repository';
import type { MeasuresService } from './measures.service';
import type { ScheduleRow } from './measures.tables';

export type MeasureSchedulesDeps = {
  db: Db;
  jobs: Jobs;
  patients: PatientsService;
  /** Sends each scheduled measure the way a send by hand does (link + mail). */
  measures: Pick<MeasuresService, 'sendLink'>;
  clock?: () => Date;
  /** The patient's pending sessions starting in (from, to] (the sessions module's port). */
  upcomingSessions: (workspaceId: string, patientId: string, from: Date, to: Date) => Promise<UpcomingSession[]>;
};

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** «Every N weeks» sends when the last send is at least N weeks back, less this slack (sessions move by a day or so). */
const WEEKS_SLACK = 2 * DAY;
const presentSchedule = (r: ScheduleRow): MeasureSchedule => ({
  id: r.id,
  measure: r.measure,
  cadence: r.cadence,
  everyWeeks: r.cadence === 'every_n_weeks' ? r.everyWeeks : null,
  status: r.status,
  hoursBefore: MEASURE_SCHEDULE_HOURS_BEFORE,
  lastSentAt: r.lastSentAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
});

/**
 * Measures sent on a schedule tied to the patient's sessions (issue 32): before each, every other, or every N
 * weeks, 24 h ahead, by the hourly sweep; with the clinical history's permission, like every measure.
 */
export class MeasureSchedulesService {
  constructor(private readonly d: MeasureSchedulesDeps) {}

  private now = () => this.d.clock?.() ?? new Date();

  async schedules(c: Caller, patientId: string): Promise<MeasureSchedule[]> {
    const p = await this.d.patients.accessible(c, patientId, 'read', 'patient_histories');
    return (await measureSchedulesRepository(this.d.db).ofPatient(p.workspaceId, p.id)).map(presentSchedule);
  }

  /** One open schedule per patient and measure (measure_schedule_exists otherwise). */
  async createSchedule(
    c: Caller,
    patientId: string,
    body: { measure: MeasureKey; cadence: MeasureCadence; everyWeeks?: number | null },
  ): Promise<MeasureSchedule> {
    const row = await this.d.db.transaction(async (tx) => {
      const p = await this.d.patients.accessible(c, patientId, 'create', 'patient_histories', tx);
      if (!p.email) throw new AppError('measure_patient_no_email');
      const open = (await measureSchedulesRepository(tx).ofPatient(p.workspaceId, p.id)).some(
        (s) => s.measure === body.measure && s.status !== 'stopped',
      );
      if (open) throw new AppError('measure_schedule_exists');
      try {
        return await measureSchedulesRepository(tx).insert({
          workspaceId: p.workspaceId,
          patientId: p.id,
          therapistId: c.userId,
          measure: body.measure,
          cadence: body.cadence,
          everyWeeks: body.cadence === 'every_n_weeks' ? body.everyWeeks! : null,
        });
      } catch (err) {
        // Two creations at once: the open key keeps one.
        if (isUniqueViolation(err)) throw new AppError('measure_schedule_exists');
        throw err;
      }
    });
    return presentSchedule(row);
  }

  /** Change the cadence, pause or resume. */
  async updateSchedule(
    c: Caller,
    patientId: string,
    id: string,
    body: { cadence?: MeasureCadence; everyWeeks?: number | null; status?: 'active' | 'paused' },
  ): Promise<MeasureSchedule> {
    const row = await this.d.db.transaction(async (tx) => {
      const p = await this.d.patients.accessible(c, patientId, 'update', 'patient_histories', tx);
      const r = await measureSchedulesRepository(tx).lock(p.workspaceId, p.id, id);
      if (!r) throw new AppError('measure_schedule_not_found');
      if (r.status === 'stopped') throw new AppError('measure_schedule_stopped');
      const cadence = body.cadence ?? r.cadence;
      const everyWeeks = cadence === 'every_n_weeks' ? (body.everyWeeks ?? r.everyWeeks) : null;
      if (cadence === 'every_n_weeks' && !everyWeeks)
        throw new AppError('invalid_argument', [{ path: 'everyWeeks', message: 'Indica cada cuántas semanas' }]);
      return measureSchedulesRepository(tx).update(r.id, { cadence, everyWeeks, status: body.status ?? r.status });
    });
    return presentSchedule(row);
  }

  /** Stopped for good (it stays in the list); a new one may then be set. */
  async stopSchedule(c: Caller, patientId: string, id: string): Promise<MeasureSchedule> {
    const row = await this.d.db.transaction(async (tx) => {
      const p = await this.d.patients.accessible(c, patientId, 'update', 'patient_histories', tx);
      const r = await measureSchedulesRepository(tx).lock(p.workspaceId, p.id, id);
      if (!r) throw new AppError('measure_schedule_not_found');
      if (r.status === 'stopped') return r;
      return measureSchedulesRepository(tx).update(r.id, { status: 'stopped', stoppedAt: this.now() });
    });
    return presentSchedule(row);
  }

  /**
   * The schedules' sweep (hourly): for every active schedule, each pending session of its patient
   * starting within MEASURE_SCHEDULE_HOURS_BEFORE is claimed once (schedule + session, job_claims, in
   * the transaction that sends), so a retried sweep or a second process never sends twice; a session
   * canceled before the sweep is not pending and sends nothing. The cadence decides whether a claimed
   * session sends: each, every other (the 1st, 3rd…), or when the last send is N weeks back.
   */
  async sendScheduled(now = this.now(), page = 200): Promise<number> {
    const until = new Date(now.getTime() + MEASURE_SCHEDULE_HOURS_BEFORE * HOUR);
    let sent = 0;
    let after: string | null = null;
    for (;;) {
      const batch = await measureSchedulesRepository(this.d.db).active(after, page);
      for (const s of batch) {
        for (const session of await this.d.upcomingSessions(s.workspaceId, s.patientId, now, until)) {
          if (await this.sendForSession(s.id, session.id, now)) sent++;
        }
      }
      if (batch.length < page) return sent;
      after = batch[batch.length - 1]!.id;
    }
  }

  private sendForSession(scheduleId: string, sessionId: string, now: Date): Promise<boolean> {
    return this.d.db.transaction(async (tx) => {
      // Paused or stopped meanwhile: nothing claimed, so a resumed schedule still sends for this session.
      const s = await measureSchedulesRepository(tx).lockById(scheduleId);
      if (!s || s.status !== 'active') return false;
      if (!(await this.d.jobs.claim(tx, `measure-schedule:${scheduleId}:${sessionId}`))) return false;
      const due =
        s.cadence === 'each_session' ||
        (s.cadence === 'every_other_session' && s.sessionsCounted % 2 === 0) ||
        (s.cadence === 'every_n_weeks' &&
          (!s.lastSentAt || now.getTime() - s.lastSentAt.getTime() >= (s.everyWeeks ?? 1) * 7 * DAY - WEEKS_SLACK));
      const contact = due ? await this.d.patients.contactOf(s.workspaceId, s.patientId, tx) : null;
      const send = !!contact?.email;
      if (send)
        await this.d.measures.sendLink(
          tx,
          { workspaceId: s.workspaceId, patientId: s.patientId, therapistId: s.therapistId },
          s.measure,
          contact,
        );
      await measureSchedulesRepository(tx).update(s.id, {
        sessionsCounted: s.sessionsCounted + 1,
        ...(send ? { lastSentAt: now } : {}),
      });
      return send;
    });
  }
}
