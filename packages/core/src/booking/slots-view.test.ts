import { describe, expect, it } from 'vitest';
import { freeSlots } from './slots';
import { toLocal } from '../time/zoned';
import type { Slot } from './slots';
import { presentSlots, utcOffsetLabel } from './slots-view';

/** The slot read through Intl for every instant: the reference the zone tables must agree with. */
const local = (slot: Slot, tz: string) => ({
  day: toLocal(slot.start, tz).day,
  from: toLocal(slot.start, tz).time,
  to: toLocal(slot.end, tz).time,
  offset: utcOffsetLabel(slot.start, tz),
});
const reference = (slot: Slot, therapist: string, visitor: string) => {
  const t = local(slot, therapist);
  const v = local(slot, visitor);
  return {
    startsAt: slot.start.toISOString(),
    endsAt: slot.end.toISOString(),
    therapist: t,
    visitor: v,
    sameLocalTime: v.day === t.day && v.from === t.from && v.to === t.to,
  };
};

describe('presentSlots', () => {
  const day = [
    { from: '00:30', to: '03:30' },
    { from: '09:00', to: '14:00' },
  ];
  const schedule = { 1: day, 2: day, 3: day, 4: day, 5: day, 6: day, 7: day };
  const span = (therapist: string) =>
    freeSlots({
      schedule,
      timeZone: therapist,
      durationMinutes: 50,
      gapMinutes: 10,
      minNotice: { amount: 0, unit: 'minutes' },
      maxNotice: { amount: 12, unit: 'months' },
      from: new Date('2026-03-01T00:00:00Z'),
      to: new Date('2027-01-01T00:00:00Z'),
      now: new Date('2026-02-28T00:00:00Z'),
    });

  it('reads each slot exactly as Intl does instant by instant, across both 2026 clock changes and in other zones', () => {
    for (const [therapist, visitor] of [
      ['Europe/Madrid', 'America/New_York'],
      ['Europe/Madrid', 'Europe/Madrid'],
      ['Atlantic/Canary', 'Australia/Lord_Howe'],
      ['America/Havana', 'Asia/Kolkata'],
    ] as const) {
      const slots = span(therapist);
      expect(slots.length).toBeGreaterThan(1000);
      expect(presentSlots(slots, therapist, visitor)).toEqual(slots.map((s) => reference(s, therapist, visitor)));
    }
  });

  it('nothing in, nothing out', () => {
    expect(presentSlots([], 'Europe/Madrid', 'UTC')).toEqual([]);
  });
});
