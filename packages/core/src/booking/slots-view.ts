/**
 * Slots as the public booking page shows them: the month calendar's free days, and a slot in the
 * visitor's time zone beside the therapist's. Presentation only: `freeSlots` computes them.
 */
import { tzOffset } from '../time/tz-offset';
import type { Slot } from './slots';
import { DAY, MINUTE, zoneTable } from './zone-table';

export type FreeDay = { day: string; slots: Slot[] };

/** Slots grouped by their (therapist's) local day, in order: the days of a month calendar that have any. */
export function freeDaysOf(slots: readonly Slot[]): FreeDay[] {
  const days: FreeDay[] = [];
  for (const slot of slots) {
    const last = days[days.length - 1];
    if (last?.day === slot.day) last.slots.push(slot);
    else days.push({ day: slot.day, slots: [slot] });
  }
  return days;
}

/** 'UTC+2', 'UTC−3', 'UTC+5:30', 'UTC' of `timeZone` at `instant`. */
export function utcOffsetLabel(instant: Date, timeZone: string): string {
  return offsetLabel(tzOffset(timeZone, instant));
}

/** 'UTC+2', 'UTC−3', 'UTC+5:30', 'UTC' of an offset in minutes. */
function offsetLabel(minutes: number): string {
  if (!minutes) return 'UTC';
  const abs = Math.abs(minutes);
  const hm = abs % 60 ? `${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}` : String(abs / 60);
  return `UTC${minutes > 0 ? '+' : '−'}${hm}`;
}

export type LocalSlotTime = { day: string; from: string; to: string; offset: string };
export type PresentedSlot = {
  startsAt: string;
  endsAt: string;
  therapist: LocalSlotTime;
  visitor: LocalSlotTime;
  /** The visitor's wall clock reads the same as the therapist's: the page shows one time. */
  sameLocalTime: boolean;
};

/**
 * A slot in the visitor's zone and the therapist's. The offset tells apart the two slots of a repeated
 * autumn hour (02:00 UTC+2 and 02:00 UTC+1).
 */
export function presentSlot(slot: Slot, therapistTimeZone: string, visitorTimeZone: string): PresentedSlot {
  return presentSlots([slot], therapistTimeZone, visitorTimeZone)[0]!;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A wall clock written as UTC milliseconds → 'YYYY-MM-DD' and 'HH:mm'. */
function wallParts(wall: number): { day: string; time: string } {
  const d = new Date(wall);
  return {
    day: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`,
    time: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`,
  };
}

/**
 * `presentSlot` for many slots at once, as a month's answer needs: each zone's offsets are read once for
 * the span (zone-table.ts), not through Intl for every slot (a month of slots: ~5 ms → well under 1 ms).
 */
export function presentSlots(slots: readonly Slot[], therapistTimeZone: string, visitorTimeZone: string): PresentedSlot[] {
  if (!slots.length) return [];
  const start = slots[0]!.start.getTime() - DAY;
  const end = slots[slots.length - 1]!.end.getTime() + DAY;
  const tables = new Map([therapistTimeZone, visitorTimeZone].map((tz) => [tz, zoneTable(tz, start, end)]));
  const local = (slot: Slot, tz: string): LocalSlotTime => {
    const table = tables.get(tz)!;
    const offset = table.offsetAt(slot.start.getTime());
    const from = wallParts(slot.start.getTime() + offset);
    return { day: from.day, from: from.time, to: wallParts(table.toWall(slot.end.getTime())).time, offset: offsetLabel(offset / MINUTE) };
  };
  return slots.map((slot) => {
    const therapist = local(slot, therapistTimeZone);
    const visitor = visitorTimeZone === therapistTimeZone ? therapist : local(slot, visitorTimeZone);
    return {
      startsAt: slot.start.toISOString(),
      endsAt: slot.end.toISOString(),
      therapist,
      visitor,
      sameLocalTime: visitor.day === therapist.day && visitor.from === therapist.from && visitor.to === therapist.to,
    };
  });
}
