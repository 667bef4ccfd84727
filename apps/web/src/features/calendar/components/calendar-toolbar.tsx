import { Link } from 'react-router';
import { CalendarClock, ChevronLeft, ChevronRight, Plus } from 'lucide-react';
import { SESSION_STATUS } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useCan } from '@/lib/permits';
import { STATUS_COLORS, therapistColor } from '../utils/colors';
import { VIEWS, type ColorBy, type ViewName, type ViewState, type Who } from '../utils/view-state';
import { Segmented } from './controls';

type Props = {
  title: string;
  state: ViewState;
  team: boolean;
  fetching: boolean;
  canCreate: boolean;
  onView: (v: ViewName) => void;
  onWho: (w: Who) => void;
  onColor: (c: ColorBy) => void;
  onToday: () => void;
  onStep: (dir: -1 | 1) => void;
  onNew: () => void;
  /** What the colours mean: the statuses, the team's therapists, or nothing (one therapist). */
  legend: 'status' | { id: string; name: string }[] | null;
};

const STEP_LABEL: Record<ViewName, [string, string]> = {
  day: ['Día anterior', 'Día siguiente'],
  team: ['Día anterior', 'Día siguiente'],
  week: ['Semana anterior', 'Semana siguiente'],
  agenda: ['Semana anterior', 'Semana siguiente'],
  month: ['Mes anterior', 'Mes siguiente'],
};

/** Title, navigation, views and the two toggles of spec §2 (whose sessions, what the colour means). */
export function CalendarToolbar({
  title,
  state,
  team,
  fetching,
  canCreate,
  onView,
  onWho,
  onColor,
  onToday,
  onStep,
  onNew,
  legend,
}: Props) {
  const canBooking = useCan('read', 'public_services');
  const views = (Object.keys(VIEWS) as ViewName[]).filter((v) => v !== 'team' || (team && state.who === 'all'));
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-3">
          <h1 className="font-display text-2xl font-semibold tracking-tight sm:text-3xl">Calendario</h1>
          {fetching ? <Spinner label="Actualizando sesiones…" className="[&_svg]:size-4" /> : null}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {canBooking ? (
            <Button variant="outline" asChild>
              <Link to="/calendar/services">
                <CalendarClock aria-hidden /> Reserva online
              </Link>
            </Button>
          ) : null}
          {canCreate ? (
            <Button onClick={onNew}>
              <Plus aria-hidden /> Nueva sesión
            </Button>
          ) : null}
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <div className="flex items-center gap-1">
          <Button variant="outline" size="sm" onClick={onToday}>
            Hoy
          </Button>
          <Button variant="ghost" size="icon" aria-label={STEP_LABEL[state.view][0]} onClick={() => onStep(-1)}>
            <ChevronLeft aria-hidden />
          </Button>
          <Button variant="ghost" size="icon" aria-label={STEP_LABEL[state.view][1]} onClick={() => onStep(1)}>
            <ChevronRight aria-hidden />
          </Button>
        </div>
        <h2 className="min-w-0 flex-1 basis-40 text-base font-semibold first-letter:uppercase sm:text-lg" aria-live="polite">
          {title}
        </h2>
        <Segmented
          label="Vista"
          value={state.view}
          onChange={onView}
          options={views.map((v) => ({ value: v, label: VIEWS[v].label }))}
          className="max-sm:w-full max-sm:[&>button]:flex-1"
        />
      </div>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        {team ? (
          <Segmented
            label="Sesiones de"
            value={state.who}
            onChange={onWho}
            options={[
              { value: 'all', label: 'Todos los terapeutas' },
              { value: 'mine', label: 'Solo mis sesiones' },
            ]}
          />
        ) : null}
        <Segmented
          label="Colorear por"
          value={state.color}
          onChange={onColor}
          options={[
            { value: 'therapist', label: 'Color por terapeuta' },
            { value: 'status', label: 'Color por estado' },
          ]}
        />
        {legend ? (
          <ul
            className="flex flex-wrap items-center gap-x-3 gap-y-1 text-[0.8125rem] text-muted-foreground"
            aria-label="Leyenda de colores"
          >
            {(legend === 'status'
              ? SESSION_STATUS.values.map((s) => ({ id: s, name: SESSION_STATUS.labels[s], color: STATUS_COLORS[s] }))
              : legend.map((t, i) => ({ ...t, color: therapistColor(i) }))
            ).map((item) => (
              <li key={item.id} className="flex items-center gap-1.5">
                <span className="size-2.5 rounded-full" style={{ backgroundColor: item.color }} aria-hidden />
                {item.name}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}
