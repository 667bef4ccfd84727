/**
 * Slots as the public booking page shows them: the month calendar's free days, and a slot in the
 * visitor's time zone beside the therapist's. Presentation only: `freeSlots` computes them.
 */
import { tzOffset } from '@date-fns/tz';
import { toLocal } from '../time/zoned';
import type { Slot } from './slots';

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
  const minutes = tzOffset(timeZone, instant);
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

function localTime(slot: Slot, timeZone: string): LocalSlotTime {
  const start = toLocal(slot.start, timeZone);
  return { day: start.day, from: start.time, to: toLocal(slot.end, timeZone).time, offset: utcOffsetLabel(slot.start, timeZone) };
}

/**
 * A slot in the visitor's zone and the therapist's. The offset tells apart the two slots of a repeated
 * autumn hour (02:00 UTC+2 and 02:00 UTC+1).
 */
export function presentSlot(slot: Slot, therapistTimeZone: string, visitorTimeZone: string): PresentedSlot {
  const therapist = localTime(slot, therapistTimeZone);
  const visitor = visitorTimeZone === therapistTimeZone ? therapist : localTime(slot, visitorTimeZone);
  return {
    startsAt: slot.start.toISOString(),
    endsAt: slot.end.toISOString(),
    therapist,
    visitor,
    sameLocalTime: visitor.day === therapist.day && visitor.from === therapist.from && visitor.to === therapist.to,
  };
}
