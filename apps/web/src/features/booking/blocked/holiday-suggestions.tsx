import { useMemo, useState } from 'react';
import { CalendarHeart } from 'lucide-react';
import { holidaysBetween, shiftDay, SPANISH_REGIONS, type Holiday, type SpanishRegion } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { messageOf } from '@/lib/error-message';
import { isoDateToDmy } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useCreateOverrides } from '../api/booking-api';
import { holidayNotice } from './holiday-notice';

const REGION_KEY = 'divan.holidayRegion';
const regionOptions = [
  { value: '', label: 'Solo festivos nacionales' },
  ...Object.entries(SPANISH_REGIONS)
    .map(([value, label]) => ({ value, label }))
    .sort((a, b) => a.label.localeCompare(b.label, 'es')),
];

function savedRegion(): SpanishRegion | null {
  try {
    const v = localStorage.getItem(REGION_KEY);
    return v && v in SPANISH_REGIONS ? (v as SpanishRegion) : null;
  } catch {
    return null;
  }
}

const weekday = (day: string) => new Date(`${day}T12:00:00Z`).toLocaleDateString('es-ES', { weekday: 'short', timeZone: 'UTC' });

/**
 * «Festivos»: the next twelve months' holidays of Spain and of the chosen community that are not yet
 * blocked, each one blocked with a press, or all at once from the notice above them, which says that a
 * holiday is bookable until it is blocked (a service's schedule knows no holidays). Suggestions only: the official calendar moves
 * some days every year, as the note says.
 */
export function HolidaySuggestions({
  wid,
  therapistId,
  today,
  blocked,
}: {
  wid: string;
  therapistId: string | null;
  today: string;
  blocked: ReadonlySet<string>;
}) {
  const [region, setRegion] = useState<SpanishRegion | null>(savedRegion);
  const create = useCreateOverrides(wid);
  const [busy, setBusy] = useState<string | null>(null);
  const holidays = useMemo(
    () => holidaysBetween(today, shiftDay(today, 365), region).filter((h) => !blocked.has(h.day)),
    [today, region, blocked],
  );

  async function block(days: Holiday[], key: string) {
    setBusy(key);
    try {
      await create.mutateAsync({ ...(therapistId ? { therapistId } : {}), dates: days.map((h) => ({ day: h.day, allDay: true })) });
      toast.success(days.length > 1 ? `${days.length} festivos bloqueados` : `${days[0]!.name} bloqueado`);
    } catch (error) {
      toast.error(messageOf(error));
    } finally {
      setBusy(null);
    }
  }

  const notice = holidayNotice(holidays);

  return (
    <div className="grid gap-3">
      {notice ? (
        <Alert className="flex flex-wrap items-center gap-x-4 gap-y-2" data-testid="holiday-notice">
          <span className="flex min-w-0 flex-1 basis-72 gap-2">
            <CalendarHeart aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
            <span>{notice.text}</span>
          </span>
          <Button size="sm" loading={busy === 'all'} disabled={!!busy} onClick={() => void block(holidays, 'all')}>
            {notice.action}
          </Button>
        </Alert>
      ) : null}
      <details className="group rounded-xl border bg-card">
        <summary className="flex cursor-pointer list-none items-center gap-2 rounded-xl px-4 py-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-ring">
          <CalendarHeart aria-hidden className="size-4 text-primary" />
          Sugerencias: festivos de los próximos 12 meses
          <span className="ml-auto text-muted-foreground group-open:hidden">Mostrar</span>
        </summary>
        <div className="grid gap-3 border-t px-4 py-3">
          <div className="flex flex-wrap items-center gap-2">
            <Label htmlFor="holiday-region">Comunidad</Label>
            <NativeSelect
              id="holiday-region"
              className="w-auto"
              options={regionOptions}
              value={region ?? ''}
              onChange={(e) => {
                const next = (e.target.value || null) as SpanishRegion | null;
                setRegion(next);
                try {
                  localStorage.setItem(REGION_KEY, next ?? '');
                } catch {
                  // A private window may refuse storage: the choice lasts this visit.
                }
              }}
            />
          </div>
          <p className="text-xs text-muted-foreground">
            Comprueba el calendario laboral oficial de tu comunidad y de tu municipio: algunos festivos cambian de día cada año.
          </p>
          {holidays.length === 0 ? (
            <p className="text-sm text-muted-foreground">Ya tienes bloqueados todos estos festivos.</p>
          ) : (
            <ul className="divide-y" aria-label="Festivos sugeridos">
              {holidays.map((h) => (
                <li key={h.day} className="flex items-center justify-between gap-3 py-2">
                  <span className="text-sm">
                    <span className="font-medium tabular-nums">{isoDateToDmy(h.day)}</span>{' '}
                    <span className="text-muted-foreground">({weekday(h.day)})</span> · {h.name}
                    {h.scope === 'regional' ? <span className="text-muted-foreground"> · autonómico</span> : null}
                  </span>
                  <Button
                    variant="ghost"
                    size="sm"
                    loading={busy === h.day}
                    disabled={!!busy}
                    aria-label={`Bloquear ${h.name}, ${isoDateToDmy(h.day)}`}
                    onClick={() => void block([h], h.day)}
                  >
                    Bloquear
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </details>
    </div>
  );
}
