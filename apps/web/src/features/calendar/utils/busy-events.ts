import { DEFAULT_TIME_ZONE, toLocal } from '@divan/core';
import type { BusyEvent } from '../components/event-calendar';

/**
 * The therapist's Google busy times (instants) as the grid's grey background blocks, at Madrid's wall clock
 * like the sessions, in their own column only: times and nothing else (no title, never clickable).
 */
export function toBusyEvents(items: readonly { start: string; end: string }[], therapistId: string, tz = DEFAULT_TIME_ZONE): BusyEvent[] {
  return items.map((b, i) => {
    const start = toLocal(new Date(b.start), tz);
    const end = toLocal(new Date(b.end), tz);
    return {
      id: `google-busy-${i}-${b.start}`,
      start: `${start.day}T${start.time}:00`,
      end: `${end.day}T${end.time}:00`,
      display: 'background',
      resourceIds: [therapistId],
      classNames: ['dv-busy'],
      editable: false,
      extendedProps: { busy: true },
    };
  });
}
