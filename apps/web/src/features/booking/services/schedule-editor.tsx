import { Plus, X } from 'lucide-react';
import { ISO_WEEKDAYS, SCHEDULE_RANGES_PER_DAY_MAX, WEEKDAY_NAMES, type IsoWeekday, type TimeRange } from '@divan/core';
import { Button } from '@/components/ui/button';
import { TimeInput } from '@/components/ui/time-input';

type Schedule = Record<IsoWeekday, TimeRange[]>;
type Props = {
  value: Schedule;
  onChange: (next: Schedule) => void;
  /** Messages by form key: 'schedule' (no weekday) and 'schedule.1.0' (a range). */
  errors: Record<string, string | undefined>;
};

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The weekly schedule: for each weekday its ranges from–to, added and removed by buttons, typed in time inputs. */
export function ScheduleEditor({ value, onChange, errors }: Props) {
  const setDay = (d: IsoWeekday, ranges: TimeRange[]) => onChange({ ...value, [d]: ranges });
  const addRange = (d: IsoWeekday) => {
    const ranges = value[d];
    const last = ranges[ranges.length - 1];
    // A new day starts with the morning; another range of the day starts where the last one ends.
    setDay(d, [...ranges, last ? { from: last.to, to: last.to < '20:00' ? '20:00' : '23:59' } : { from: '09:00', to: '14:00' }]);
  };
  return (
    <fieldset className="grid gap-2" aria-describedby={errors.schedule ? 'schedule-message' : undefined}>
      <legend className="mb-1 text-sm font-medium">Horario semanal</legend>
      <ul className="grid divide-y rounded-lg border">
        {ISO_WEEKDAYS.map((d) => {
          const name = capital(WEEKDAY_NAMES[d]);
          return (
            <li key={d} className="grid gap-2 p-3 sm:grid-cols-[7rem_minmax(0,1fr)] sm:items-start">
              <span className="pt-2 text-sm font-medium">{name}</span>
              <div className="grid gap-2">
                {value[d].length === 0 ? <span className="text-sm text-muted-foreground sm:pt-2">Sin horario</span> : null}
                {value[d].map((r, i) => {
                  const error = errors[`schedule.${d}.${i}`];
                  const messageId = `schedule-${d}-${i}-message`;
                  const set = (patch: Partial<TimeRange>) =>
                    setDay(
                      d,
                      value[d].map((x, j) => (j === i ? { ...x, ...patch } : x)),
                    );
                  return (
                    <div key={i} className="grid gap-1">
                      <div className="flex flex-wrap items-center gap-2">
                        <TimeInput
                          className="max-w-[7.5rem]"
                          value={r.from}
                          aria-label={`${name}, rango ${i + 1}: desde`}
                          aria-invalid={error ? true : undefined}
                          aria-describedby={error ? messageId : undefined}
                          onChange={(from) => set({ from })}
                        />
                        <span aria-hidden>–</span>
                        <TimeInput
                          className="max-w-[7.5rem]"
                          value={r.to}
                          aria-label={`${name}, rango ${i + 1}: hasta`}
                          aria-invalid={error ? true : undefined}
                          aria-describedby={error ? messageId : undefined}
                          onChange={(to) => set({ to })}
                        />
                        <Button
                          type="button"
                          variant="ghost"
                          size="icon"
                          aria-label={`Quitar el rango ${i + 1} del ${WEEKDAY_NAMES[d]}`}
                          onClick={() =>
                            setDay(
                              d,
                              value[d].filter((_, j) => j !== i),
                            )
                          }
                        >
                          <X aria-hidden />
                        </Button>
                      </div>
                      {error ? (
                        <p id={messageId} role="alert" className="text-[0.8125rem] font-medium text-destructive">
                          {error}
                        </p>
                      ) : null}
                    </div>
                  );
                })}
                {value[d].length < SCHEDULE_RANGES_PER_DAY_MAX ? (
                  <Button
                    type="button"
                    variant="ghost"
                    size="sm"
                    className="justify-self-start"
                    aria-label={`Añadir un rango al ${WEEKDAY_NAMES[d]}`}
                    onClick={() => addRange(d)}
                  >
                    <Plus aria-hidden /> Añadir rango
                  </Button>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
      {errors.schedule ? (
        <p id="schedule-message" role="alert" className="text-[0.8125rem] font-medium text-destructive">
          {errors.schedule}
        </p>
      ) : null}
    </fieldset>
  );
}
