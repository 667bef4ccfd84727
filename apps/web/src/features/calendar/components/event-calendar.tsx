import { useEffect, useRef } from 'react';
import {
  createCalendar,
  DayGrid,
  destroyCalendar,
  Interaction,
  List,
  ResourceTimeGrid,
  TimeGrid,
  type Calendar,
} from '@event-calendar/core';
import '@event-calendar/core/index.css';
import './event-calendar.css';
import { dayOf, gridDate, timeOf } from '../utils/dates';
import { plainGridRoles } from '../utils/grid-roles';
import { VIEWS, type ViewName } from '../utils/view-state';
import { eventContent, type BusyProps, type SessionProps } from './event-content';

export type GridEvent = Calendar.EventInput & { id: string; extendedProps: SessionProps };
/** A grey block of the therapist's Google busy times (display 'background': drawn behind, never clicked). */
export type BusyEvent = Calendar.EventInput & { id: string; display: 'background'; extendedProps: BusyProps };
export type Slot = { day: string; from: string; to: string; resourceId?: string };
export type Change = {
  id: string;
  day: string;
  from: string;
  to: string;
  resourceId?: string;
  revert: () => void;
  kind: 'move' | 'resize';
};

type Props = {
  view: ViewName;
  date: string;
  events: GridEvent[];
  /** The signed-in therapist's Google busy times, behind the sessions. */
  busy?: BusyEvent[];
  resources: { id: string; title: string }[];
  /** Whether the member may create or move sessions at all (per event via `editable`). */
  editable: boolean;
  height: string;
  /** 'HH:mm' the time grid scrolls to (on a new value, and on every new range). */
  scrollTime: string;
  onRange: (range: { startDay: string; endDay: string; title: string }) => void;
  onSelect: (slot: Slot) => void;
  onOpen: (id: string) => void;
  onChange: (change: Change) => void;
};

const hhmm: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hour12: false };

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
      buttonText: {
        today: 'Hoy',
        dayGridMonth: 'Mes',
        timeGridWeek: 'Semana',
        timeGridDay: 'Día',
        listWeek: 'Agenda',
        listDay: 'Agenda',
        resourceTimeGridDay: 'Equipo',
        resourceTimeGridWeek: 'Equipo',
      },
      allDayContent: 'Todo el día',
      allDaySlot: false,
      noEventsContent: 'No hay sesiones en estas fechas',
      nowIndicator: true,
      slotDuration: '00:30',
      slotHeight: 30,
      snapDuration: '00:05',
      scrollTime: latest.current.scrollTime,
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
      events: [...latest.current.events, ...(latest.current.busy ?? [])],
      resources: latest.current.resources,
      eventContent,
      eventDidMount: ({ el: node, event }) => {
        if (event.extendedProps.busy) node.dataset.googleBusy = '';
        else node.dataset.sessionId = String(event.id);
      },
      eventClick: ({ event }) => latest.current.onOpen(String(event.id)),
      select: (info) => {
        calendar.unselect();
        const from = info.allDay ? '10:00' : timeOf(info.start);
        const to = info.allDay ? '10:50' : timeOf(info.end);
        latest.current.onSelect({
          day: dayOf(info.start),
          from,
          to: to === '00:00' ? '23:59' : to,
          resourceId: info.resource ? String(info.resource.id) : undefined,
        });
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
        latest.current.onChange({
          id: String(info.event.id),
          day: dayOf(info.event.start),
          from: timeOf(info.event.start),
          to: timeOf(info.event.end),
          revert: info.revert,
          kind: 'resize',
        }),
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
  useEffect(() => void ec.current?.setOption('events', [...props.events, ...(props.busy ?? [])]), [props.events, props.busy]);
  useEffect(() => void ec.current?.setOption('resources', props.resources), [props.resources]);
  useEffect(() => void ec.current?.setOption('height', props.height), [props.height]);
  useEffect(() => void ec.current?.setOption('scrollTime', props.scrollTime), [props.scrollTime]);
  useEffect(() => {
    ec.current?.setOption('editable', props.editable);
    ec.current?.setOption('selectable', props.editable);
  }, [props.editable]);

  return <div ref={el} className="dv-calendar" />;
}
