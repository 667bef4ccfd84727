import type { Modality } from '../patients/patient.constants';
import { SESSION_STATUS, type SessionStatus } from './session.constants';

/**
 * The calendar's week as its grid draws it (issue 26): what a box shows and what moving it needs, and
 * nothing the detail dialog fetches when a session is opened (price, payment, reminders, timestamps…).
 *
 * Columns, not an object per session: a clinic's team week is ~3,000 sessions, and as objects with the
 * full contract it was 2.4 MB of JSON to build, send and parse. Each name is written once (a patient's
 * display name, a therapist's, a location's, a series' pattern) and the sessions point at it by index;
 * a day is an index into `days`; `from` and `to` are minutes after the day's midnight on the session's
 * own wall clock (as the full read's `day`, `from`, `to`); `status` is an index into SESSION_STATUS.
 */
export type SessionGrid = {
  days: string[];
  therapists: { id: string; name: string }[];
  /** Display names only: the grid shows the patient's name, and opening the session reads the rest. */
  patients: string[];
  locations: { id: string; name: string }[];
  series: { id: string; description: string }[];
  sessions: {
    id: string[];
    day: number[];
    from: number[];
    to: number[];
    status: number[];
    therapist: number[];
    patient: number[];
    /** −1: no location. */
    location: number[];
    /** −1: not part of a series. */
    series: number[];
    /** GRID_FLAG bits. */
    flags: number[];
  };
};

/** `noteMissing` is set only for a reader who may read the session's clinical fields (SESSION_FIELDS). */
export const GRID_FLAG = { online: 1, noteMissing: 2 } as const;

/**
 * One session as the grid uses it. The full `Session` of the contracts has every one of these fields,
 * so what takes a GridSession (a move, an overlap, a box) takes a full session too.
 */
export type GridSession = {
  id: string;
  day: string;
  from: string;
  to: string;
  status: SessionStatus;
  modality: Modality;
  patient: { name: string };
  therapist: { id: string; name: string };
  location: { id: string; name: string } | null;
  series: { id: string; description: string } | null;
  noteMissing?: boolean;
};

/** What the server writes for one session: a GridSession and its patient's id (to write each name once). */
export type GridEntry = GridSession & { patientId: string };

const pad = (n: number) => String(n).padStart(2, '0');
const clock = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** An index per distinct key, in order of first appearance. */
function indexer<T>(keyOf: (value: T) => string) {
  const at = new Map<string, number>();
  const values: T[] = [];
  return {
    values,
    index(value: T): number {
      const key = keyOf(value);
      let i = at.get(key);
      if (i === undefined) at.set(key, (i = values.push(value) - 1));
      return i;
    },
  };
}

/** Sessions (in the order given, which the grid keeps) as the grid's columns. */
export function encodeSessionGrid(entries: readonly GridEntry[]): SessionGrid {
  const days = indexer<string>((d) => d);
  const therapists = indexer<{ id: string; name: string }>((t) => t.id);
  const patients = indexer<{ id: string; name: string }>((p) => p.id);
  const locations = indexer<{ id: string; name: string }>((l) => l.id);
  const series = indexer<{ id: string; description: string }>((s) => s.id);
  const statusIndex = new Map(SESSION_STATUS.values.map((s, i) => [s, i]));
  const cols: SessionGrid['sessions'] = {
    id: [],
    day: [],
    from: [],
    to: [],
    status: [],
    therapist: [],
    patient: [],
    location: [],
    series: [],
    flags: [],
  };
  for (const e of entries) {
    cols.id.push(e.id);
    cols.day.push(days.index(e.day));
    cols.from.push(minutesOf(e.from));
    cols.to.push(minutesOf(e.to));
    cols.status.push(statusIndex.get(e.status)!);
    cols.therapist.push(therapists.index({ id: e.therapist.id, name: e.therapist.name }));
    cols.patient.push(patients.index({ id: e.patientId, name: e.patient.name }));
    cols.location.push(e.location ? locations.index({ id: e.location.id, name: e.location.name }) : -1);
    cols.series.push(e.series ? series.index({ id: e.series.id, description: e.series.description }) : -1);
    cols.flags.push((e.modality === 'online' ? GRID_FLAG.online : 0) | (e.noteMissing ? GRID_FLAG.noteMissing : 0));
  }
  return {
    days: days.values,
    therapists: therapists.values,
    patients: patients.values.map((p) => p.name),
    locations: locations.values,
    series: series.values,
    sessions: cols,
  };
}

/** The grid's columns back as one object per session (the web calendar's read). */
export function decodeSessionGrid(grid: SessionGrid): GridSession[] {
  const c = grid.sessions;
  const out: GridSession[] = new Array(c.id.length);
  for (let i = 0; i < c.id.length; i++) {
    const location = c.location[i]! >= 0 ? grid.locations[c.location[i]!]! : null;
    const series = c.series[i]! >= 0 ? grid.series[c.series[i]!]! : null;
    out[i] = {
      id: c.id[i]!,
      day: grid.days[c.day[i]!]!,
      from: clock(c.from[i]!),
      to: clock(c.to[i]!),
      status: SESSION_STATUS.values[c.status[i]!]!,
      modality: c.flags[i]! & GRID_FLAG.online ? 'online' : 'presential',
      patient: { name: grid.patients[c.patient[i]!]! },
      therapist: grid.therapists[c.therapist[i]!]!,
      location,
      series,
      noteMissing: (c.flags[i]! & GRID_FLAG.noteMissing) !== 0,
    };
  }
  return out;
}
