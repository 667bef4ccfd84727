import { useEffect, useRef } from 'react';
import { createCalendar, DayGrid, destroyCalendar, Interaction, List, ResourceTimeGrid, TimeGrid, type Calendar } from '@event-calendar/core';
import '@event-calendar/core/index.css';
import './event-calendar.css';
import { dayOf, gridDate, timeOf } from '../utils/dates';
import { plainGridRoles } from '../utils/grid-roles';
import { VIEWS, type ViewName } from '../utils/view-state';

export type GridEvent = Calendar.EventInput & { id: string; extendedProps: { label: string; badges: string[]; sub: string; canceled: boolean; done: boolean } };
export type Slot = { day: string; from: string; to: string; resourceId?: string };
export type Change = { id: string; day: string; from: string; to: string; resourceId?: string; revert: () => void; kind: 'move' | 'resize' };

type Props = {
  view: ViewName;
  date: string;
  events: GridEvent[];
  resources: { id: string; title: string }[];
  /** Whether the member may create or move sessions at all (per event via `editable`). */
  editable: boolean;
  height: string;
  onRange: (range: { startDay: string; endDay: string; title: string }) => void;
  onSelect: (slot: Slot) => void;
  onOpen: (id: string) => void;
  onChange: (change: Change) => void;
};

const hhmm: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hour12: false };

const BADGE_TEXT: Record<string, string> = { online: 'Online', series: 'Serie', note: 'Sin nota' };

const el = (tag: string, className: string, text?: string) => {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

/**
 * The event's box, built as DOM (no HTML strings): the patient first, then the time and where, then
 * small signs (online, series, note missing). A month cell gets one line. Its accessible name is what
 * is visible, then (for screen readers only) the day and how it stands.
 */
function eventContent(info: Calendar.EventContentInfo): Calendar.Content {
  const p = info.event.extendedProps as GridEvent['extendedProps'];
  // A completed session carries a tick before the name, whatever the colours mean.
  const title = `${p.done ? '✓ ' : ''}${String(info.event.title ?? '')}`;
  const compact = info.view.type === 'dayGridMonth';
  const root = el('div', compact ? 'dv-event dv-event-compact' : 'dv-event');
  // The spaces between the parts are not laid out (grid and flex items) but keep the words apart in the name.
  const add = (...nodes: Node[]) => nodes.forEach((n) => root.append(...(root.childNodes.length ? [' ', n] : [n])));
  if (compact) {
    add(el('span', 'dv-event-time', info.timeText), el('span', 'dv-event-title', title));
    // A month cell has room for the name: the missing note is a dot there (named for screen readers).
    if (p.badges.includes('note')) add(el('span', 'dv-dot-note'), el('span', 'sr-only', BADGE_TEXT.note));
  } else {
    add(el('div', 'dv-event-title', title), el('div', 'dv-event-time', [info.timeText, p.sub].filter(Boolean).join(' · ')));
    if (p.badges.length) {
      const badges = el('div', 'dv-event-badges');
      p.badges.forEach((b, i) => badges.append(...(i ? [' '] : []), el('span', `dv-badge dv-badge-${b}`, BADGE_TEXT[b] ?? b)));
      add(badges);
    }
  }
  root.append(el('span', 'sr-only', `. ${p.label}`));
  // The grid's element is the keyboard's button; the tests and the page find a session by its id.
  const id = String(info.event.id);
  requestAnimationFrame(() => {
    const box = root.closest<HTMLElement>('.ec-event');
    if (box) box.dataset.sessionId = id;
  });
  return { domNodes: [root] };
}

/**
 * @event-calendar (Svelte inside, mounted by hand) with Diván's choices: Spanish, weeks from Monday,
 * 24-hour clock, today's line, select to create, drag and resize to move. Every event is a button a
 * keyboard reaches (Tab) and opens (Enter); the Move dialog does what dragging does.
 */
export function EventCalendar(props: Props) {
  const el = useRef<HTMLDivElement>(null);
  const ec = useRef<Calendar | null>(null);
  // The callbacks change on every render; the calendar keeps calling the latest through this ref.
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const calendar = createCalendar(el.current!, [TimeGrid, DayGrid, List, ResourceTimeGrid, Interaction], {
      view: VIEWS[latest.current.view].ec,
      date: gridDate(latest.current.date, '12:00'),
      locale: 'es',
      firstDay: 1,
      height: latest.current.height,
      headerToolbar: { start: '', center: '', end: '' },
      buttonText: { today: 'Hoy', dayGridMonth: 'Mes', timeGridWeek: 'Semana', timeGridDay: 'Día', listWeek: 'Agenda', listDay: 'Agenda', resourceTimeGridDay: 'Equipo', resourceTimeGridWeek: 'Equipo' },
      allDayContent: 'Todo el día',
      allDaySlot: false,
      noEventsContent: 'No hay sesiones en estas fechas',
      nowIndicator: true,
      slotDuration: '00:30',
      slotHeight: 30,
      snapDuration: '00:05',
      scrollTime: '08:00',
      slotLabelFormat: hhmm,
      // HH:mm as everywhere in Diván (Intl's Spanish says 9:00).
      eventTimeFormat: (start: Date, end: Date | null) => (end ? `${timeOf(start)}–${timeOf(end)}` : timeOf(start)),
      dayHeaderFormat: { weekday: 'short', day: 'numeric' },
      dayHeaderAriaLabelFormat: { dateStyle: 'full' },
      listDayFormat: { weekday: 'long' },
      listDaySideFormat: { day: 'numeric', month: 'long' },
      titleFormat: { year: 'numeric', month: 'long', day: 'numeric' },
      dayMaxEvents: true,
      moreLinkContent: (arg) => `+${arg.num} más`,
      views: {
        dayGridMonth: { titleFormat: { year: 'numeric', month: 'long' }, dayHeaderFormat: { weekday: 'short' } },
        resourceTimeGridDay: { dayHeaderFormat: { weekday: 'long', day: 'numeric', month: 'long' } },
      },
      selectable: latest.current.editable,
      editable: latest.current.editable,
      pointer: true,
      events: latest.current.events,
      resources: latest.current.resources,
      eventContent,
      eventDidMount: ({ el: node, event }) => {
        node.dataset.sessionId = String(event.id);
      },
      eventClick: ({ event }) => latest.current.onOpen(String(event.id)),
      select: (info) => {
        calendar.unselect();
        const from = info.allDay ? '10:00' : timeOf(info.start);
        const to = info.allDay ? '10:50' : timeOf(info.end);
        latest.current.onSelect({ day: dayOf(info.start), from, to: to === '00:00' ? '23:59' : to, resourceId: info.resource ? String(info.resource.id) : undefined });
      },
      dateClick: (info) => {
        // A tap on a month day: a new session that day at a usual hour.
        if (info.view.type === 'dayGridMonth') latest.current.onSelect({ day: dayOf(info.date), from: '10:00', to: '10:50' });
      },
      eventDrop: (info) =>
        latest.current.onChange({
          id: String(info.event.id),
          day: dayOf(info.event.start),
          from: timeOf(info.event.start),
          to: timeOf(info.event.end),
          resourceId: info.newResource ? String(info.newResource.id) : undefined,
          revert: info.revert,
          kind: 'move',
        }),
      eventResize: (info) =>
        latest.current.onChange({ id: String(info.event.id), day: dayOf(info.event.start), from: timeOf(info.event.start), to: timeOf(info.event.end), revert: info.revert, kind: 'resize' }),
      datesSet: (info) => {
        // `end` is exclusive; the dates are the grid's local wall clock.
        latest.current.onRange({ startDay: dayOf(info.start), endDay: dayOf(info.end), title: info.view.title });
      },
    });
    ec.current = calendar;
    const unfix = plainGridRoles(el.current!);
    return () => {
      unfix();
      ec.current = null;
      void destroyCalendar(calendar);
    };
  }, []);

  useEffect(() => void ec.current?.setOption('view', VIEWS[props.view].ec), [props.view]);
  useEffect(() => void ec.current?.setOption('date', gridDate(props.date, '12:00')), [props.date]);
  useEffect(() => void ec.current?.setOption('events', props.events), [props.events]);
  useEffect(() => void ec.current?.setOption('resources', props.resources), [props.resources]);
  useEffect(() => void ec.current?.setOption('height', props.height), [props.height]);
  useEffect(() => {
    ec.current?.setOption('editable', props.editable);
    ec.current?.setOption('selectable', props.editable);
  }, [props.editable]);

  return <div ref={el} className="dv-calendar" />;
}
