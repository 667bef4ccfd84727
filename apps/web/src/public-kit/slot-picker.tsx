import { useEffect } from 'react';
import { MonthCalendar } from './calendar';
import { serverMessage } from './failure';
import { dayLabel, zoneCity } from './format';
import { addMonths, monthOf } from './month-grid';
import { freeDaysIn, type Slot } from './slots';
import { Alert, Button, ErrorState, FocusHeading, Skeleton, cx } from './ui';
import type { MonthSlots } from './use-slot-months';

type Props = {
  slots: MonthSlots;
  day: string | null;
  onDay: (day: string | null) => void;
  onPick: (slot: Slot) => void;
  picked: string | null;
  therapistTimeZone: string;
  visitorZone: string | undefined;
  minMonth: string;
  maxMonth: string;
  today: string;
  /** Why the visitor is back here (the hour was taken), read out as it appears. */
  notice: string | null;
  /** The title takes focus when the visitor comes back here from a later step. */
  focusTitle: boolean;
};

/** The month's free days, then the chosen day's hours in the visitor's zone (the therapist's beside them when they differ). */
export function SlotPicker({
  slots,
  day,
  onDay,
  onPick,
  picked,
  therapistTimeZone,
  visitorZone,
  minMonth,
  maxMonth,
  today,
  notice,
  focusTitle,
}: Props) {
  const { month, loaded, byDay, failure } = slots;
  const free = loaded ? freeDaysIn(byDay, month) : null;
  const dayInMonth = day && monthOf(day) === month && byDay.has(day) ? day : null;

  // A month that opens selects its first free day: one tap less on a phone.
  useEffect(() => {
    if (free && free.length && !dayInMonth) onDay(free[0]!);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, month, free?.[0], dayInMonth]);

  const daySlots = dayInMonth ? (byDay.get(dayInMonth) ?? []) : [];
  const differentZone =
    daySlots.some((s) => !s.sameLocalTime) || (!!visitorZone && visitorZone !== therapistTimeZone && daySlots.length === 0);

  return (
    <section aria-labelledby="slots-title" className="grid gap-5">
      <FocusHeading level={2} id="slots-title" focus={focusTitle}>
        Elige día y hora
      </FocusHeading>
      {notice ? <Alert testId="slots-notice">{notice}</Alert> : null}
      <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,14rem)]">
        <div className="rounded-xl border bg-card p-3 shadow-xs sm:p-4">
          <MonthCalendar
            month={month}
            minMonth={minMonth}
            maxMonth={maxMonth}
            onMonth={slots.setMonth}
            freeDays={free ? new Set(free) : null}
            selected={dayInMonth}
            onSelect={onDay}
            today={today}
          />
          {failure ? (
            <ErrorState title="No se han podido cargar las horas libres" message={serverMessage(failure)} retry={slots.retry} />
          ) : free && !free.length ? (
            <div className="grid justify-items-start gap-3 border-t pt-4" data-testid="month-empty">
              <p role="status" className="text-[0.9375rem] font-medium">
                No hay horas libres este mes
              </p>
              {month < maxMonth ? (
                <Button variant="outline" onClick={() => slots.setMonth(addMonths(month, 1))}>
                  Ver el mes siguiente
                </Button>
              ) : null}
            </div>
          ) : null}
        </div>
        <div className="grid content-start gap-3">
          {!loaded && !failure ? (
            <div className="grid grid-cols-3 gap-2 md:grid-cols-2" aria-label="Cargando las horas libres">
              {Array.from({ length: 6 }, (_, i) => (
                <Skeleton key={i} className="h-11" />
              ))}
            </div>
          ) : dayInMonth ? (
            <>
              <h3 className="text-[0.9375rem] font-semibold first-letter:uppercase">{dayLabel(dayInMonth)}</h3>
              {differentZone && visitorZone ? (
                <p className="text-[0.8125rem] text-muted-foreground">
                  Horas en tu zona horaria ({zoneCity(visitorZone)}); al lado, la hora de la consulta ({zoneCity(therapistTimeZone)}).
                </p>
              ) : null}
              <ul className="grid grid-cols-3 gap-2 md:grid-cols-2" data-testid="slots">
                {daySlots.map((s) => (
                  <li key={s.startsAt}>
                    <SlotButton
                      slot={s}
                      picked={picked === s.startsAt}
                      repeated={daySlots.some((o) => o !== s && o.visitor.from === s.visitor.from)}
                      therapistCity={zoneCity(therapistTimeZone)}
                      onPick={onPick}
                    />
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      </div>
    </section>
  );
}

function SlotButton({
  slot,
  picked,
  repeated,
  therapistCity,
  onPick,
}: {
  slot: Slot;
  picked: boolean;
  repeated: boolean;
  therapistCity: string;
  onPick: (slot: Slot) => void;
}) {
  const offset = repeated ? ` (${slot.visitor.offset})` : '';
  const other = slot.sameLocalTime ? '' : `${slot.therapist.from} en ${therapistCity}`;
  return (
    <button
      type="button"
      aria-pressed={picked}
      onClick={() => onPick(slot)}
      className={cx(
        'grid min-h-11 w-full cursor-pointer place-items-center rounded-md border px-2 py-1.5 text-[0.9375rem] font-semibold tabular-nums transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        picked
          ? 'border-primary bg-primary text-primary-foreground'
          : 'border-input bg-card text-foreground hover:border-primary hover:bg-accent',
      )}
    >
      <span>
        {slot.visitor.from}
        {offset ? <span className="text-xs font-normal">{offset}</span> : null}
      </span>
      {other ? <span className="sr-only">, </span> : null}
      {other ? (
        <span className={cx('text-xs font-normal', picked ? 'text-primary-foreground/85' : 'text-muted-foreground')}>{other}</span>
      ) : null}
    </button>
  );
}
