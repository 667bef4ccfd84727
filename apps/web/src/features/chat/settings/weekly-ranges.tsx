import { Plus, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { TimeInput } from '@/components/ui/time-input';
import { cn } from '@/lib/cn';
import { NEW_RANGE, rangeKey, WEEKDAYS, type FormErrors, type Range } from '../model/office-hours-form';

type Props = { days: Range[][]; errors: FormErrors; onChange: (days: Range[][]) => void; full: boolean };

/** The week, Monday first: each day with its ranges (several a day), added and removed by button. */
export function WeeklyRanges({ days, errors, onChange, full }: Props) {
  const setDay = (day: number, ranges: Range[]) => onChange(days.map((r, i) => (i === day ? ranges : r)));
  return (
    <ul className="grid divide-y rounded-lg border">
      {WEEKDAYS.map((name, day) => {
        const ranges = days[day] ?? [];
        return (
          <li
            key={name}
            className={cn(
              'grid gap-1 px-3 py-2.5 sm:grid-cols-[7rem_minmax(0,1fr)] sm:items-start sm:gap-2',
              ranges.length === 0 && 'grid-cols-[6rem_minmax(0,1fr)] items-center',
            )}
          >
            <span id={`oh-day-${day}`} className="flex items-center text-sm font-medium sm:h-10">
              {name}
            </span>
            <div className={cn('gap-2', ranges.length === 0 ? 'flex min-h-10 flex-wrap items-center justify-between' : 'grid')}>
              {ranges.length === 0 ? <p className="text-sm text-muted-foreground">Sin horario</p> : null}
              {ranges.map((r, index) => {
                const startError = errors[rangeKey(day, index, 'start')];
                const endError = errors[rangeKey(day, index, 'end')];
                const errorId = `oh-${day}-${index}-error`;
                return (
                  <div key={index} className="grid gap-1">
                    <div className="flex items-center gap-2">
                      <div className="w-20">
                        <TimeInput
                          data-field={rangeKey(day, index, 'start')}
                          aria-label={`${name}, franja ${index + 1}: desde`}
                          aria-invalid={startError ? true : undefined}
                          aria-describedby={startError || endError ? errorId : undefined}
                          value={r.start}
                          onChange={(start) =>
                            setDay(
                              day,
                              ranges.map((x, i) => (i === index ? { ...x, start } : x)),
                            )
                          }
                          className="text-center tabular-nums"
                        />
                      </div>
                      <span className="text-sm text-muted-foreground" aria-hidden>
                        a
                      </span>
                      <div className="w-20">
                        <TimeInput
                          data-field={rangeKey(day, index, 'end')}
                          aria-label={`${name}, franja ${index + 1}: hasta`}
                          aria-invalid={endError ? true : undefined}
                          aria-describedby={startError || endError ? errorId : undefined}
                          value={r.end}
                          onChange={(end) =>
                            setDay(
                              day,
                              ranges.map((x, i) => (i === index ? { ...x, end } : x)),
                            )
                          }
                          className="text-center tabular-nums"
                        />
                      </div>
                      <Button
                        type="button"
                        variant="ghost"
                        size="icon"
                        aria-label={`Quitar la franja ${index + 1} del ${name.toLowerCase()}`}
                        onClick={() =>
                          setDay(
                            day,
                            ranges.filter((_, i) => i !== index),
                          )
                        }
                      >
                        <X aria-hidden />
                      </Button>
                    </div>
                    {startError || endError ? (
                      <p id={errorId} role="alert" className="text-[0.8125rem] font-medium text-destructive">
                        {[startError, endError].filter(Boolean).join('. ')}
                      </p>
                    ) : null}
                  </div>
                );
              })}
              <Button
                type="button"
                variant="link"
                size="none"
                disabled={full}
                className="justify-self-start text-sm"
                aria-describedby={`oh-day-${day}`}
                onClick={() => setDay(day, [...ranges, nextRange(ranges)])}
              >
                <Plus aria-hidden /> Añadir franja
              </Button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** A new range: the morning when the day has none, else the afternoon after its last one. */
function nextRange(ranges: Range[]): Range {
  if (ranges.length === 0) return NEW_RANGE;
  const last = ranges.at(-1)!.end;
  return last < '16:00' ? { start: '16:00', end: '20:00' } : { start: last, end: last < '23:00' ? '23:00' : '23:59' };
}
