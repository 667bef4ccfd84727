import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { monthLabel, spokenDay } from './format';
import { addMonths, keyTarget, monthGrid, monthOf } from './month-grid';
import { Button, cx } from './ui';

/** [L, lunes] … [D, domingo]: 30 November 2026 is a Monday. */
const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6].map((i) => {
  const d = new Date(Date.UTC(2026, 10, 30 + i));
  const f = (weekday: 'narrow' | 'long') => d.toLocaleDateString('es-ES', { weekday, timeZone: 'UTC' });
  return [f('narrow'), f('long')] as const;
});

type Props = {
  month: string;
  minMonth: string;
  maxMonth: string;
  onMonth: (month: string) => void;
  /** The month's days with free slots; null while the month loads. */
  freeDays: ReadonlySet<string> | null;
  selected: string | null;
  onSelect: (day: string) => void;
  today: string;
};

/**
 * A month of days, free ones selectable. One day is in the tab order; the arrows move between days
 * like a grid (Inicio/Fin: the week, RePág/AvPág: the month) and cross into the next or previous month.
 */
export function MonthCalendar({ month, minMonth, maxMonth, onMonth, freeDays, selected, onSelect, today }: Props) {
  const [focusDay, setFocusDay] = useState<string | null>(null);
  const moved = useRef(false);
  const grid = useRef<HTMLTableElement>(null);
  const firstFree = freeDays && [...freeDays].sort()[0];
  const active =
    focusDay && monthOf(focusDay) === month ? focusDay : selected && monthOf(selected) === month ? selected : (firstFree ?? `${month}-01`);

  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    grid.current?.querySelector<HTMLButtonElement>(`[data-day="${active}"]`)?.focus();
  }, [active, month]);

  const onKeyDown = (e: KeyboardEvent) => {
    const target = keyTarget(active, e.key, e.shiftKey);
    if (!target) return;
    e.preventDefault();
    const targetMonth = monthOf(target);
    if (targetMonth < minMonth || targetMonth > maxMonth) return;
    moved.current = true;
    setFocusDay(target);
    if (targetMonth !== month) onMonth(targetMonth);
  };

  return (
    <div className="grid gap-3" data-testid="month-calendar">
      <div className="flex items-center justify-between gap-2">
        <Button
          variant="ghost"
          className="size-11 px-0 text-xl"
          aria-label="Mes anterior"
          disabled={month <= minMonth}
          onClick={() => onMonth(addMonths(month, -1))}
        >
          ‹
        </Button>
        <h3 id="calendar-month" aria-live="polite" className="text-base font-semibold first-letter:uppercase">
          {monthLabel(month)}
        </h3>
        <Button
          variant="ghost"
          className="size-11 px-0 text-xl"
          aria-label="Mes siguiente"
          disabled={month >= maxMonth}
          onClick={() => onMonth(addMonths(month, 1))}
        >
          ›
        </Button>
      </div>
      <table
        ref={grid}
        role="grid"
        aria-labelledby="calendar-month"
        aria-busy={!freeDays || undefined}
        className="w-full table-fixed border-collapse text-center"
        onKeyDown={onKeyDown}
      >
        <thead>
          <tr>
            {WEEKDAYS.map(([short, long]) => (
              <th key={long} scope="col" abbr={long} className="pb-1 text-[0.8125rem] font-medium text-muted-foreground">
                {short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthGrid(month).map((week, i) => (
            <tr key={i}>
              {week.map((day, j) =>
                day ? (
                  <DayCell
                    key={day}
                    day={day}
                    free={!!freeDays?.has(day)}
                    loading={!freeDays}
                    selected={day === selected}
                    today={day === today}
                    tabbable={day === active}
                    onSelect={onSelect}
                  />
                ) : (
                  <td key={`pad-${j}`} />
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function DayCell({
  day,
  free,
  loading,
  selected,
  today,
  tabbable,
  onSelect,
}: {
  day: string;
  free: boolean;
  loading: boolean;
  selected: boolean;
  today: boolean;
  tabbable: boolean;
  onSelect: (day: string) => void;
}) {
  // The visible number is part of the name a screen reader hears: «jueves 3 de diciembre de 2026, con horas libres».
  const [weekday, rest] = spokenDay(day);
  const status = `${loading ? '' : free ? ', con horas libres' : ', sin horas libres'}${today ? ' (hoy)' : ''}`;
  return (
    <td role="gridcell" aria-selected={selected} className="p-0.5">
      <button
        type="button"
        data-day={day}
        tabIndex={tabbable ? 0 : -1}
        aria-disabled={!free || undefined}
        onClick={() => free && onSelect(day)}
        className={cx(
          'mx-auto aspect-square w-full max-w-12 rounded-full text-[0.9375rem] tabular-nums transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
          loading && 'animate-pulse',
          selected
            ? 'bg-primary font-semibold text-primary-foreground'
            : free
              ? 'cursor-pointer bg-accent font-semibold text-accent-foreground hover:bg-primary/15'
              : 'cursor-default text-muted-foreground/60',
          today && !selected && 'ring-1 ring-inset ring-primary/50',
        )}
      >
        <span className="sr-only">{weekday} </span>
        {Number(day.slice(8))}
        <span className="sr-only">
          {rest}
          {status}
        </span>
      </button>
    </td>
  );
}
