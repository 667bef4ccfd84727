import { useMemo, useState } from 'react';
import { Plus, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { TimeInput } from '@/components/ui/time-input';
import { useConfirmDiscard } from '@/components/ui/confirm-discard';
import { ModalForm } from '@/components/ui/form-dialog';
import { DayInput } from '@/components/ui/day-input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { isApiError } from '@/lib/http';
import { messageOf } from '@/lib/error-message';
import { toast } from '@/lib/toast';
import { useCreateOverrides } from '../api/booking-api';
import { entryOf, newRow, rowProblems, type BlockRow } from './block-dates-model';

type Props = { wid: string; therapistId: string | null; today: string; open: boolean; onOpenChange: (open: boolean) => void };

/** «Bloquear fechas»: several days at once, each all day or from–to; mounted per opening. */
export function BlockDatesDialog(props: Props) {
  return props.open ? <BlockDatesBody {...props} /> : null;
}

function Message({ id, text }: { id: string; text: string | undefined }) {
  return text ? (
    <p id={id} role="alert" className="text-[0.8125rem] font-medium text-destructive">
      {text}
    </p>
  ) : null;
}

function BlockDatesBody({ wid, therapistId, today, onOpenChange }: Props) {
  const [rows, setRows] = useState<BlockRow[]>(() => [newRow()]);
  const [touched, setTouched] = useState<Set<number>>(new Set());
  const [tried, setTried] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const create = useCreateOverrides(wid);
  const dirty = rows.some((r) => r.day.trim()) || rows.length > 1;
  const discard = useConfirmDiscard(dirty);
  const problems = useMemo(() => rowProblems(rows, today), [rows, today]);
  const errorAt = (i: number, field: 'day' | 'to') => (tried || touched.has(rows[i]!.key) ? problems[`${i}.${field}`] : undefined);

  const update = (i: number, patch: Partial<BlockRow>) => {
    setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));
    setTouched((t) => new Set(t).add(rows[i]!.key));
    setFormError(null);
  };

  async function submit() {
    setTried(true);
    setFormError(null);
    if (Object.keys(problems).length) return;
    try {
      await create.mutateAsync({ ...(therapistId ? { therapistId } : {}), dates: rows.map(entryOf) });
      discard.release();
      toast.success(rows.length > 1 ? 'Fechas bloqueadas' : 'Fecha bloqueada');
      onOpenChange(false);
    } catch (error) {
      // «Ya hay un bloqueo en esa fecha: …» (409) and the other refusals name what is wrong in their first field.
      setFormError(isApiError(error) && error.fields[0] ? error.fields[0].message : messageOf(error));
    }
  }

  const close = () => discard.confirm(() => onOpenChange(false));
  return (
    <>
      <ModalForm
        id="block-dates-form"
        title="Bloquear fechas"
        description="Esos días u horas no se ofrecen en tu página de reserva. Las sesiones del calendario no cambian."
        dirty={dirty}
        onClose={close}
        error={formError}
        pending={create.isPending}
        confirmLabel="Bloquear"
        onConfirm={submit}
        className="grid gap-3"
      >
        <ul className="grid gap-3">
          {rows.map((r, i) => {
            const n = i + 1;
            const dayError = errorAt(i, 'day');
            const rangeError = errorAt(i, 'to');
            return (
              <li key={r.key} className="relative grid gap-2 rounded-lg border p-3">
                <div className="flex flex-wrap items-end gap-3">
                  <div className="grid gap-1.5">
                    <Label htmlFor={`block-day-${r.key}`}>Fecha {n}</Label>
                    <DayInput
                      id={`block-day-${r.key}`}
                      className="max-w-36"
                      value={r.day}
                      onChange={(day) => update(i, { day })}
                      aria-invalid={dayError ? true : undefined}
                      aria-describedby={dayError ? `block-day-${r.key}-message` : undefined}
                    />
                  </div>
                  <div className="flex h-10 items-center gap-2">
                    <Switch id={`block-all-${r.key}`} checked={r.allDay} onCheckedChange={(allDay) => update(i, { allDay })} />
                    <Label htmlFor={`block-all-${r.key}`}>Todo el día</Label>
                  </div>
                  {!r.allDay ? (
                    <div className="flex items-center gap-2">
                      <TimeInput
                        className="max-w-[7.5rem]"
                        aria-label={`Fecha ${n}: desde`}
                        value={r.from}
                        aria-invalid={rangeError ? true : undefined}
                        onChange={(from) => update(i, { from })}
                      />
                      <span aria-hidden>–</span>
                      <TimeInput
                        className="max-w-[7.5rem]"
                        aria-label={`Fecha ${n}: hasta`}
                        value={r.to}
                        aria-invalid={rangeError ? true : undefined}
                        aria-describedby={rangeError ? `block-range-${r.key}-message` : undefined}
                        onChange={(to) => update(i, { to })}
                      />
                    </div>
                  ) : null}
                  {rows.length > 1 ? (
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      className="absolute right-1.5 top-1.5"
                      aria-label={`Quitar la fecha ${n}`}
                      onClick={() => setRows((rs) => rs.filter((_, j) => j !== i))}
                    >
                      <X aria-hidden />
                    </Button>
                  ) : null}
                </div>
                <Message id={`block-day-${r.key}-message`} text={dayError} />
                <Message id={`block-range-${r.key}-message`} text={rangeError} />
              </li>
            );
          })}
        </ul>
        {rows.length < 100 ? (
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="justify-self-start"
            onClick={() => {
              // A new row is not yet wrong: its messages wait for its first change or the next «Bloquear».
              setTried(false);
              setRows((rs) => [...rs, newRow()]);
            }}
          >
            <Plus aria-hidden /> Añadir otra fecha
          </Button>
        ) : null}
      </ModalForm>
      {discard.dialog}
    </>
  );
}
