import { isIsoDay } from '@divan/core';

/** The calendar's views as the URL names them, and the @event-calendar view behind each. */
export const VIEWS = {
  day: { label: 'Día', ec: 'timeGridDay' },
  week: { label: 'Semana', ec: 'timeGridWeek' },
  month: { label: 'Mes', ec: 'dayGridMonth' },
  agenda: { label: 'Agenda', ec: 'listWeek' },
  team: { label: 'Equipo', ec: 'resourceTimeGridDay' },
} as const;
export type ViewName = keyof typeof VIEWS;
export type Who = 'all' | 'mine';
export type ColorBy = 'therapist' | 'status';

export type ViewState = { view: ViewName; date: string; who: Who; color: ColorBy };

const isView = (v: string | null): v is ViewName => !!v && v in VIEWS;

/**
 * The view, day, "whose" and colouring live in the URL (`?view=week&date=2026-11-24&who=mine&color=status`),
 * so a reload or a shared link shows the same. Phones start on the day view.
 */
export function readViewState(params: URLSearchParams, fallback: { today: string; phone: boolean }): ViewState {
  const view = params.get('view');
  const date = params.get('date');
  return {
    view: isView(view) ? view : fallback.phone ? 'day' : 'week',
    date: date && isIsoDay(date) ? date : fallback.today,
    who: params.get('who') === 'mine' ? 'mine' : 'all',
    color: params.get('color') === 'status' ? 'status' : 'therapist',
  };
}

/** Writes only what differs from the defaults, keeping other parameters (`?session=`, `?new=`). */
export function writeViewState(params: URLSearchParams, state: ViewState, defaults: { today: string; phone: boolean }): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (key: string, value: string, def: string) => (value === def ? next.delete(key) : next.set(key, value));
  set('view', state.view, defaults.phone ? 'day' : 'week');
  set('date', state.date, defaults.today);
  set('who', state.who, 'all');
  set('color', state.color, 'therapist');
  return next;
}
