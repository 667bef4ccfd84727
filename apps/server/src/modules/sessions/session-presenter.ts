import { setImmediate as yieldToLoop } from 'node:timers/promises';
import {
  SESSION_FIELDS,
  canReadField,
  encodeSessionGrid,
  readableView,
  localClock,
  toLocal,
  type AppAbility,
  type GridEntry,
  type Session,
  type SessionConflict,
  type SessionGrid,
} from '@divan/core';
import { describeFrequency, type MonthlyWeek } from '@divan/core/series';
import type { GridRow, SeriesInfo, SessionWithLocation } from './sessions.repository';
import type { SessionRow } from './sessions.tables';

/** A session with the names it is shown with. */
export type SessionView = SessionWithLocation & {
  patientName: string;
  therapistName: string;
  /** Read only for members who read clinical history: whether the session has its note, and its id when theirs to open. */
  note?: { exists: boolean; id: string | null };
};

/** A session as the member reads it: fields of SESSION_FIELDS they may not read are left out. */
export function presentSession(ability: AppAbility, s: SessionView): Session {
  const start = toLocal(s.startsAt, s.timeZone);
  const full: Session = {
    id: s.id,
    patient: { id: s.patientId, name: s.patientName },
    therapist: { id: s.therapistId, name: s.therapistName },
    day: start.day,
    from: start.time,
    to: toLocal(s.endsAt, s.timeZone).time,
    timeZone: s.timeZone,
    startsAt: s.startsAt.toISOString(),
    endsAt: s.endsAt.toISOString(),
    status: s.status,
    cancellationReason: s.cancellationReason,
    canceledAt: s.canceledAt?.toISOString() ?? null,
    completedAt: s.completedAt?.toISOString() ?? null,
    price: s.price,
    fee: s.fee,
    paymentsReceiver: s.paymentsReceiver,
    paymentStatus: s.paymentStatus,
    paymentType: s.paymentType,
    paidAt: s.paidAt?.toISOString() ?? null,
    modality: s.modality,
    location: s.locationId ? { id: s.locationId, name: s.locationName ?? '' } : null,
    reminders: s.reminders,
    invoiced: s.invoiced,
    chargeDate: s.chargeDate,
    videoConference: s.videoConference,
    series: presentSeries(s, start),
    noteId: s.note?.id ?? null,
    // A completed session still waiting for its clinical note.
    noteMissing: s.status === 'completed' && s.note?.exists === false,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
  return readableView(ability, SESSION_FIELDS, { ownerId: s.therapistId }, full);
}

/** Sessions presented between two turns of the event loop in a range read. */
const LIST_SLICE = 250;

/** A clinic's week is thousands of sessions: presented in slices, so other requests are served between them. */
export async function presentSessionsInSlices(ability: AppAbility, sessions: SessionView[]): Promise<Session[]> {
  const items: Session[] = [];
  for (let i = 0; i < sessions.length; i += LIST_SLICE) {
    if (i > 0) await yieldToLoop();
    for (const s of sessions.slice(i, i + LIST_SLICE)) items.push(presentSession(ability, s));
  }
  return items;
}

/** The session's series: its pattern in Spanish, and whether this occurrence was moved (day or time) by hand. */
function presentSeries(s: SessionWithLocation, start: { day: string; time: string }): Session['series'] {
  const info = s.seriesInfo;
  if (!s.seriesId || s.seriesIndex === null || !info) return null;
  const moved = start.day !== s.seriesOriginalDay || start.time !== info.startTime;
  return { id: s.seriesId, index: s.seriesIndex, frequency: info.frequency, description: describeSeries(info), moved };
}

/** "Cada semana, los martes": a series' pattern in Spanish ('' for one the rules no longer describe). */
function describeSeries(info: Pick<SeriesInfo, 'frequency' | 'startDay' | 'monthlyWeek'>): string {
  try {
    return describeFrequency({
      frequency: info.frequency,
      startDay: info.startDay,
      monthlyWeek: (info.monthlyWeek ?? undefined) as MonthlyWeek | undefined,
    });
  } catch {
    return '';
  }
}

/** A range read's names, each looked up once (SessionsService): a patient's, a therapist's, a session's note. */
export type SessionNames = {
  patient: (patientId: string) => string;
  therapist: (therapistId: string) => string;
  /** Undefined unless the reader reads clinical history. */
  note: (sessionId: string) => SessionView['note'];
};

/**
 * The calendar grid's columns (core's session-grid). The clinical flag (a completed session without its
 * note) is written only where the reader may read it, as `presentSession` leaves `noteMissing` out.
 */
export function presentGrid(ability: AppAbility, rows: GridRow[], names: SessionNames): SessionGrid {
  const notesReadable = new Map<string, boolean>();
  const readsNotes = (ownerId: string) => {
    let ok = notesReadable.get(ownerId);
    if (ok === undefined) notesReadable.set(ownerId, (ok = canReadField(ability, SESSION_FIELDS, 'noteMissing', { ownerId })));
    return ok;
  };
  const descriptions = new Map<string, string>();
  // Each zone's offset is read at the ends of its sessions' span, not per instant (Intl's zone offset was
  // a quarter of the read's CPU): core's localClock, exact for a week.
  const clocks = new Map<string, (at: Date) => { day: string; time: string }>();
  const spans = new Map<string, { first: number; last: number }>();
  for (const s of rows) {
    const span = spans.get(s.timeZone);
    const a = s.startsAt.getTime();
    const b = s.endsAt.getTime();
    if (!span) spans.set(s.timeZone, { first: Math.min(a, b), last: Math.max(a, b) });
    else {
      span.first = Math.min(span.first, a, b);
      span.last = Math.max(span.last, a, b);
    }
  }
  for (const [zone, { first, last }] of spans) clocks.set(zone, localClock(zone, new Date(first), new Date(last)));
  const local = (at: Date, zone: string) => clocks.get(zone)!(at);
  const entries = rows.map((s): GridEntry => {
    const start = local(s.startsAt, s.timeZone);
    let series: GridEntry['series'] = null;
    if (s.seriesId && s.frequency && s.startDay) {
      let description = descriptions.get(s.seriesId);
      if (description === undefined)
        descriptions.set(
          s.seriesId,
          (description = describeSeries({ frequency: s.frequency, startDay: s.startDay, monthlyWeek: s.monthlyWeek })),
        );
      series = { id: s.seriesId, description };
    }
    return {
      id: s.id,
      patientId: s.patientId,
      day: start.day,
      from: start.time,
      to: local(s.endsAt, s.timeZone).time,
      status: s.status,
      modality: s.modality,
      patient: { name: names.patient(s.patientId) },
      therapist: { id: s.therapistId, name: names.therapist(s.therapistId) },
      location: s.locationId ? { id: s.locationId, name: s.locationName ?? '' } : null,
      series,
      noteMissing: s.status === 'completed' && names.note(s.id)?.exists === false && readsNotes(s.therapistId),
    };
  });
  return encodeSessionGrid(entries);
}

/** Overlaps as warnings: by therapist first, else by location. */
export function presentConflicts(s: Pick<SessionRow, 'therapistId' | 'locationId'>, others: SessionRow[]): SessionConflict[] {
  return others.map((o) => ({
    id: o.id,
    kind: o.therapistId === s.therapistId ? 'therapist' : 'location',
    therapistId: o.therapistId,
    locationId: o.locationId,
    startsAt: o.startsAt.toISOString(),
    endsAt: o.endsAt.toISOString(),
  }));
}
