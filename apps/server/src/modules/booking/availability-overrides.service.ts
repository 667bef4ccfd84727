import {
  formatDayEs,
  AVAILABILITY_OVERRIDES_MAX,
  type AvailabilityOverride,
  availabilityOverrideProblems,
  type AvailabilityOverrideRecord,
  bookingErrorMessages,
  canOn,
  DEFAULT_TIME_ZONE,
  scopeFor,
  todayIn,
} from '@divan/core';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { Caller } from '../../platform/auth/caller';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { bookingRepository } from './booking.repository';
import type { AvailabilityOverrideRow } from './booking.tables';

const notFound = () => new AppError('availability_restriction_not_found');
const unique = (err: unknown) =>
  (err as { code?: string }).code === '23505' || (err as { cause?: { code?: string } }).cause?.code === '23505';
const exists = (days: string[]) =>
  new AppError('availability_restriction_exists', [
    {
      path: 'dates',
      message: `Ya hay un bloqueo ${days.length > 1 ? 'en esas fechas' : 'en esa fecha'}: ${days.map(formatDayEs).join(', ')}.`,
    },
  ]);

/**
 * Blocked days and ranges of a therapist (spec §3 "availability override", subject
 * `availability_restrictions`, owned by the therapist): public booking offers no slot there. "Today"
 * is the therapist's day in Madrid (DEFAULT_TIME_ZONE); past days are neither added nor listed.
 */
export class AvailabilityOverridesService {
  private changed: (workspaceId: string) => void = () => {};
  /** Told after every committed change (public booking's cached slots). */
  onChange(fn: (workspaceId: string) => void) {
    this.changed = fn;
  }

  constructor(private readonly d: { db: Db; workspaces: WorkspacesService; clock?: () => Date }) {}

  private today = () => todayIn(DEFAULT_TIME_ZONE, this.d.clock?.() ?? new Date());

  async list(c: Caller, therapistId?: string): Promise<AvailabilityOverrideRecord[]> {
    const scope = scopeFor(c.member.ability, 'read', 'availability_restrictions', c.userId);
    if (scope.kind === 'none') throw new AppError('access_denied');
    return (await bookingRepository(this.d.db).overrides(c.member.workspaceId, scope, this.today(), therapistId)).map(present);
  }

  async create(c: Caller, body: { therapistId?: string; dates: AvailabilityOverride[] }): Promise<AvailabilityOverrideRecord[]> {
    const ws = c.member.workspaceId;
    const therapistId = body.therapistId ?? c.userId;
    if (!canOn(c.member.ability, 'create', 'availability_restrictions', { ownerId: therapistId })) throw new AppError('access_denied');
    const today = this.today();
    const problems = availabilityOverrideProblems(body.dates, today);
    if (problems.length)
      throw new AppError(
        'invalid_argument',
        problems.map(({ path, message }) => ({ path, message })),
      );
    const rows = await this.d.db.transaction(async (tx) => {
      if (!(await this.d.workspaces.memberTerms(ws, therapistId, tx)))
        throw new AppError('therapist_not_member', [{ path: 'therapistId', message: 'La persona elegida no es miembro de este espacio' }]);
      const repo = bookingRepository(tx);
      const taken = await repo.blockedDays(
        ws,
        therapistId,
        body.dates.map((o) => o.day),
      );
      if (taken.length) throw exists(taken.sort());
      if ((await repo.countFutureOverrides(ws, therapistId, today)) + body.dates.length > AVAILABILITY_OVERRIDES_MAX)
        throw new AppError(
          'availability_restriction_limit_exceeded',
          undefined,
          bookingErrorMessages.blockedDaysLimit(AVAILABILITY_OVERRIDES_MAX),
        );
      return repo.insertOverrides(body.dates.map((o) => ({ workspaceId: ws, therapistId, ...columnsOf(o) }))).catch((err: unknown) => {
        // Two requests at once for the same day: the unique key decides.
        throw unique(err) ? exists(body.dates.map((o) => o.day)) : err;
      });
    });
    this.changed(ws);
    return rows.sort((a, b) => a.day.localeCompare(b.day)).map(present);
  }

  async update(c: Caller, id: string, body: AvailabilityOverride): Promise<AvailabilityOverrideRecord> {
    const current = await this.accessible(c, id, 'update');
    const problems = availabilityOverrideProblems([body], this.today(), '');
    if (problems.length)
      throw new AppError(
        'invalid_argument',
        problems.map(({ path, message }) => ({ path, message })),
      );
    const row = await bookingRepository(this.d.db)
      .updateOverride(current.workspaceId, id, columnsOf(body))
      .catch((err: unknown) => {
        throw unique(err) ? exists([body.day]) : err;
      });
    if (!row) throw notFound();
    this.changed(row.workspaceId);
    return present(row);
  }

  async delete(c: Caller, id: string): Promise<void> {
    const current = await this.accessible(c, id, 'delete');
    if (!(await bookingRepository(this.d.db).deleteOverride(current.workspaceId, id))) throw notFound();
    this.changed(current.workspaceId);
  }

  private async accessible(c: Caller, id: string, action: 'update' | 'delete'): Promise<AvailabilityOverrideRow> {
    const row = await bookingRepository(this.d.db).override(c.member.workspaceId, id);
    if (!row || !canOn(c.member.ability, 'read', 'availability_restrictions', { ownerId: row.therapistId })) throw notFound();
    if (!canOn(c.member.ability, action, 'availability_restrictions', { ownerId: row.therapistId })) throw new AppError('access_denied');
    return row;
  }
}

const columnsOf = (o: AvailabilityOverride) => ({
  day: o.day,
  allDay: o.allDay,
  fromTime: o.allDay ? null : o.from,
  toTime: o.allDay ? null : o.to,
});

const present = (r: AvailabilityOverrideRow): AvailabilityOverrideRecord => ({
  id: r.id,
  therapistId: r.therapistId,
  day: r.day,
  allDay: r.allDay,
  from: r.fromTime,
  to: r.toTime,
  createdAt: r.createdAt.toISOString(),
});
