import { SESSION_STATUS } from '@divan/core';
import type { GridSession } from '../api/types';
import type { GridEvent } from '../components/event-calendar';
import { STATUS_COLORS, therapistColor } from './colors';
import { formatDayLong } from './dates';
import type { ColorBy } from './view-state';

type Options = {
  colorBy: ColorBy;
  therapists: { id: string; name: string }[];
  /** A team's calendar names the therapist on each session. */
  showTherapist: boolean;
  editable: (s: GridSession) => boolean;
};

/** Sessions as the grid's events: at their own wall clock, coloured, labelled for screen readers. */
export function toGridEvents(sessions: GridSession[], o: Options): GridEvent[] {
  const index = new Map(o.therapists.map((t, i) => [t.id, i]));
  return sessions.map((s) => {
    const badges = [s.modality === 'online' ? 'online' : null, s.series ? 'series' : null, s.noteMissing ? 'note' : null].filter(
      (b): b is string => !!b,
    );
    const sub = [o.showTherapist ? s.therapist.name : null, s.location?.name ?? null].filter(Boolean).join(' · ');
    // Said after the visible text: the day, how it stands, and the series.
    const label = [
      formatDayLong(s.day),
      o.showTherapist ? `con ${s.therapist.name}` : null,
      SESSION_STATUS.labels[s.status],
      s.series ? s.series.description : null,
    ]
      .filter(Boolean)
      .join(', ');
    const color = o.colorBy === 'status' ? STATUS_COLORS[s.status] : therapistColor(index.get(s.therapist.id) ?? 0);
    const editable = s.status !== 'canceled' && o.editable(s);
    return {
      id: s.id,
      start: `${s.day}T${s.from}:00`,
      end: `${s.day}T${s.to}:00`,
      title: s.patient.name,
      resourceIds: [s.therapist.id],
      backgroundColor: color,
      editable,
      classNames: [`dv-${s.status}`],
      extendedProps: { label, badges, sub, canceled: s.status === 'canceled', done: s.status === 'completed' },
    };
  });
}
