/**
 * Editing a session series, as data: what "only this one", "this and following" and "all" mean for a
 * series and its stored occurrences. Pure; the server turns a plan into inserts/updates/deletes.
 *
 * Model. A stored occurrence is `{ index, originalDay, override? }`: its place in the series (index from
 * 0, and the local day the series gave it) plus what was changed by hand for it alone (day, time,
 * duration, fields, canceled). Its effective values are `override ?? series` field by field
 * (`resolveOccurrence`). A moved occurrence stays in its series: same series, same index and original day.
 * `existing` is every stored occurrence of the series.
 *
 * Scopes.
 * - this: only the chosen occurrence's override changes (values equal to the series' drop out of it,
 *   so moving it back makes it plain again). Frequency, end or zone cannot be changed for one session.
 * - following (at index k > 0): the series is split. The current series ends before the chosen
 *   occurrence (COUNT=k, or UNTIL the day before its original day); a new series starts from it with the
 *   new values and the rest of the old end (remaining count, or the same until day). Occurrences k… move
 *   to the new series (`series: 'new'`). At k = 0 it is the same as "all".
 * - all: the series is redefined in place.
 * In both, the chosen occurrence (following) maps to the new series' first occurrence and loses the
 * overrides the edit sets; other stored occurrences are matched by their original day:
 * - still in the new pattern → kept (updated when an effective value or its index changes). **Overrides
 *   survive**: a moved occurrence (day or time changed by hand) keeps its whole moved slot, day and time,
 *   when the edit changes the series' time (only plain occurrences move; canceled ones follow the series,
 *   still canceled); a field changed by hand keeps its value; a value becomes plain again only when it
 *   equals the new series' value (a session moved to 19:00 is plain once the series moves to 19:00).
 * - no longer in the pattern (the start day or frequency changed) → removed, even when overridden; the
 *   plan lists them in `remove` so the UI can warn before saving.
 * Days of the new pattern with no stored occurrence are created.
 * Cancel (`planSeriesCancel`) marks occurrences canceled (kept for no-show/cancellation statistics), for
 * the chosen one, it and the following, or all; the series' definition does not change.
 */
import { isHHmm, isIsoDay, shiftDay, toInstant, toLocal, addMinutes } from '../time/zoned';
import {
  SeriesError,
  checkSeries,
  expandSeries,
  monthlyPosition,
  type MonthlyWeek,
  type SeriesDefinition,
  type SeriesEnd,
  type SeriesFrequency,
} from './recurrence';

export * from './recurrence';

type Fields = Record<string, unknown>;
export type OccurrenceOverride<F extends object = Fields> = {
  day?: string;
  time?: string;
  durationMinutes?: number;
  fields?: Partial<F>;
  canceled?: boolean;
};
export type StoredOccurrence<F extends object = Fields> = { index: number; originalDay: string; override?: OccurrenceOverride<F> };
export type ResolvedOccurrence<F extends object = Fields> = StoredOccurrence<F> & {
  day: string;
  time: string;
  start: Date;
  end: Date;
  durationMinutes: number;
  fields: Partial<F>;
  canceled: boolean;
};
/** `series`: which series the row belongs to after the plan ('new' only for "this and following"). */
export type PlannedOccurrence<F extends object = Fields> = ResolvedOccurrence<F> & { series: 'current' | 'new' };
export type SeriesEditPlan<F extends object = Fields> = {
  /** The edited series after the edit (same id). */
  series: SeriesDefinition<F>;
  /** "This and following": the series that continues from the chosen occurrence. */
  newSeries?: SeriesDefinition<F>;
  create: PlannedOccurrence<F>[];
  /** `fromIndex`: the stored row's index before the edit (its key with the series id). */
  update: (PlannedOccurrence<F> & { fromIndex: number })[];
  /** Stored rows to delete, as they were. */
  remove: ResolvedOccurrence<F>[];
};
export type EditScope = 'this' | 'following' | 'all';
/** For "this": startDay/startTime are the occurrence's new day/time; otherwise the (new) series' start. */
export type SeriesChange<F extends object = Fields> = {
  startDay?: string;
  startTime?: string;
  durationMinutes?: number;
  frequency?: SeriesFrequency;
  monthlyWeek?: MonthlyWeek;
  end?: SeriesEnd;
  tz?: string;
  fields?: Partial<F>;
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The override without what equals the series' own value (undefined when nothing is left). */
function normalize<F extends object>(
  def: SeriesDefinition<F> & { tz: string },
  originalDay: string,
  o: OccurrenceOverride<F> | undefined,
): OccurrenceOverride<F> | undefined {
  if (!o) return undefined;
  const out: OccurrenceOverride<F> = {};
  if (o.day !== undefined && o.day !== originalDay) out.day = o.day;
  if (o.time !== undefined && o.time !== def.startTime) out.time = o.time;
  if (o.durationMinutes !== undefined && o.durationMinutes !== def.durationMinutes) out.durationMinutes = o.durationMinutes;
  const base = (def.fields ?? {}) as Fields;
  const fields = Object.entries((o.fields ?? {}) as Fields).filter(([k, v]) => !same(base[k], v));
  if (fields.length) out.fields = Object.fromEntries(fields) as Partial<F>;
  if (o.canceled) out.canceled = true;
  return Object.keys(out).length ? out : undefined;
}

/** Effective values of a stored occurrence: override ?? series, field by field. */
export function resolveOccurrence<F extends object>(def: SeriesDefinition<F>, stored: StoredOccurrence<F>): ResolvedOccurrence<F> {
  const s = checkSeries(def);
  const override = normalize(s, stored.originalDay, stored.override);
  const day = override?.day ?? stored.originalDay;
  const durationMinutes = override?.durationMinutes ?? s.durationMinutes;
  const start = toInstant(day, override?.time ?? s.startTime, s.tz);
  return {
    index: stored.index,
    originalDay: stored.originalDay,
    ...(override ? { override } : {}),
    day,
    time: toLocal(start, s.tz).time,
    start,
    end: addMinutes(start, durationMinutes),
    durationMinutes,
    fields: { ...(s.fields ?? {}), ...(override?.fields ?? {}) } as Partial<F>,
    canceled: override?.canceled === true,
  };
}

function findRow<F extends object>(existing: StoredOccurrence<F>[], index: number): StoredOccurrence<F> {
  const row = existing.find((r) => r.index === index);
  if (!row) throw new SeriesError('Esa sesión no pertenece a la serie.');
  return row;
}

function checkOccurrenceChange(change: SeriesChange<object>): void {
  if (change.frequency !== undefined || change.end !== undefined || change.tz !== undefined) {
    throw new SeriesError('Para cambiar la frecuencia, el final o la zona horaria, elige «Esta y las siguientes» o «Todas».');
  }
  if (change.startDay !== undefined && !isIsoDay(change.startDay)) throw new SeriesError('La fecha de la sesión no es válida.');
  if (change.startTime !== undefined && !isHHmm(change.startTime)) throw new SeriesError('La hora de la sesión no es válida (HH:mm).');
}

function applyChange<F extends object>(def: SeriesDefinition<F>, change: SeriesChange<F>): SeriesDefinition<F> {
  const { fields, ...timing } = change;
  const out: SeriesDefinition<F> = { ...def };
  for (const [k, v] of Object.entries(timing)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  if (fields) out.fields = { ...(def.fields ?? {}), ...fields } as F;
  // A monthly position belongs to the old start day: a new start day or frequency derives its own.
  const keepsWeek = out.frequency === 'monthly' && change.startDay === undefined && change.monthlyWeek === undefined;
  if (!keepsWeek && change.monthlyWeek === undefined) delete out.monthlyWeek;
  return out;
}

/** The override of the chosen occurrence without the parts the edit sets for it. */
function clearEdited<F extends object>(o: OccurrenceOverride<F> | undefined, change: SeriesChange<F>): OccurrenceOverride<F> | undefined {
  if (!o) return undefined;
  const out: OccurrenceOverride<F> = { ...o };
  if (change.startDay !== undefined) delete out.day;
  if (change.startTime !== undefined) delete out.time;
  if (change.durationMinutes !== undefined) delete out.durationMinutes;
  if (change.fields && out.fields) {
    out.fields = Object.fromEntries(Object.entries(out.fields).filter(([k]) => !(k in change.fields!))) as Partial<F>;
  }
  return out;
}

/** Fits stored rows to a (new) definition: kept by original day, removed, or created. */
function reconcile<F extends object>(
  plan: SeriesEditPlan<F>,
  oldDef: SeriesDefinition<F>,
  def: SeriesDefinition<F>,
  tag: 'current' | 'new',
  rows: StoredOccurrence<F>[],
  pinned?: { row: StoredOccurrence<F>; override: OccurrenceOverride<F> | undefined },
): void {
  const occurrences = expandSeries(def);
  const byDay = new Map(occurrences.map((o) => [o.day, o]));
  const taken = new Set<string>();
  // The pinned row first, so that no other row takes the first occurrence's day before it.
  const ordered = pinned ? [pinned.row, ...rows.filter((r) => r !== pinned.row)] : rows;
  for (const row of ordered) {
    const before = resolveOccurrence(oldDef, row);
    const isPinned = pinned?.row === row;
    const target = isPinned ? occurrences[0] : byDay.get(row.originalDay);
    if (!target || taken.has(target.day)) {
      plan.remove.push(before);
      continue;
    }
    taken.add(target.day);
    // A moved occurrence keeps its moved slot (day and time) whatever the new series' time is.
    const moved = row.override?.day !== undefined || row.override?.time !== undefined;
    const override = isPinned ? pinned.override : moved ? { ...row.override, day: before.day, time: before.time } : row.override;
    const after = resolveOccurrence(def, { index: target.index, originalDay: target.day, override });
    if (tag === 'new' || !same(before, after)) plan.update.push({ ...after, series: tag, fromIndex: row.index });
  }
  for (const o of occurrences) {
    if (!taken.has(o.day)) plan.create.push({ ...resolveOccurrence(def, { index: o.index, originalDay: o.day }), series: tag });
  }
}

export type SeriesEditInput<F extends object = Fields> = {
  scope: EditScope;
  series: SeriesDefinition<F>;
  existing: StoredOccurrence<F>[];
  /** The chosen occurrence's index. */
  index: number;
  change: SeriesChange<F>;
};

/** What an edit of one occurrence, it and the following, or all of a series means, as data. */
export function planSeriesEdit<F extends object>(input: SeriesEditInput<F>): SeriesEditPlan<F> {
  const { scope, existing, index, change } = input;
  const series = checkSeries(input.series);
  const chosen = findRow(existing, index);
  const plan: SeriesEditPlan<F> = { series: input.series, create: [], update: [], remove: [] };

  if (scope === 'this') {
    checkOccurrenceChange(change);
    if (change.durationMinutes !== undefined) checkSeries({ ...series, durationMinutes: change.durationMinutes });
    const o = chosen.override ?? {};
    const override: OccurrenceOverride<F> = {
      ...o,
      ...(change.startDay !== undefined ? { day: change.startDay } : {}),
      ...(change.startTime !== undefined ? { time: change.startTime } : {}),
      ...(change.durationMinutes !== undefined ? { durationMinutes: change.durationMinutes } : {}),
      ...(change.fields ? { fields: { ...(o.fields ?? {}), ...change.fields } } : {}),
    };
    const after = resolveOccurrence(series, { ...chosen, override });
    if (!same(after, resolveOccurrence(series, chosen))) plan.update.push({ ...after, series: 'current', fromIndex: chosen.index });
    return plan;
  }

  if (scope === 'all' || index === 0) {
    const def = applyChange(input.series, change);
    checkSeries(def);
    plan.series = def;
    const pinned = scope === 'following' ? { row: chosen, override: clearEdited(chosen.override, change) } : undefined;
    reconcile(plan, input.series, def, 'current', existing, pinned);
    return plan;
  }

  // This and following: split before the chosen occurrence.
  const before = expandSeries(series).filter((o) => o.index < index);
  const previous = before.at(-1);
  if (!previous || before.length !== index) throw new SeriesError('Esa sesión no pertenece a la serie.');
  plan.series = { ...input.series, end: 'count' in series.end ? { count: index } : { until: shiftDay(chosen.originalDay, -1) } };
  const rest: SeriesEnd = 'count' in series.end ? { count: series.end.count - index } : series.end;
  // The new series keeps the old monthly position ("the last Friday" stays the last, even from a 4th one).
  const week = series.frequency === 'monthly' ? { monthlyWeek: monthlyPosition(series.startDay, series.monthlyWeek).position } : {};
  const newSeries = applyChange({ ...input.series, ...week, startDay: chosen.originalDay, end: rest }, change);
  checkSeries(newSeries);
  if (newSeries.startDay <= previous.day) throw new SeriesError('La nueva serie no puede empezar antes de la sesión anterior de la serie.');
  plan.newSeries = newSeries;
  const following = existing.filter((r) => r.index >= index);
  reconcile(plan, input.series, newSeries, 'new', following, { row: chosen, override: clearEdited(chosen.override, change) });
  return plan;
}

/** Cancels the chosen occurrence, it and the following, or all (already canceled ones are left alone). */
export function planSeriesCancel<F extends object>(input: Omit<SeriesEditInput<F>, 'change'> & { fields?: Partial<F> }): SeriesEditPlan<F> {
  const { scope, series, existing, index, fields } = input;
  findRow(existing, index);
  const plan: SeriesEditPlan<F> = { series, create: [], update: [], remove: [] };
  const inScope = existing.filter((r) => (scope === 'this' ? r.index === index : scope === 'following' ? r.index >= index : true));
  for (const row of inScope) {
    const before = resolveOccurrence(series, row);
    if (before.canceled) continue;
    const o = row.override ?? {};
    const override = { ...o, canceled: true, ...(fields ? { fields: { ...(o.fields ?? {}), ...fields } } : {}) };
    plan.update.push({ ...resolveOccurrence(series, { ...row, override }), series: 'current', fromIndex: row.index });
  }
  return plan;
}
