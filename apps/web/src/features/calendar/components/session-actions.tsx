import { useState, type FormEvent } from 'react';
import { CANCELLATION_REASON, isHHmm, isIsoDay, PAYMENT_TYPE, type CancellationReason, type PaymentType } from '@divan/core';
import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { toast } from '@/lib/toast';
import { useCancelSession, usePaySession } from '../api/sessions-api';
import type { CalendarSession, Scope } from '../api/types';
import { useMoveSession } from '../api/use-move';
import { addToTime, minutesBetween, normalizeTime } from '../utils/dates';
import { DayInput, TimeInput } from './day-time-inputs';
import { messageOf } from '@/lib/error-message';
import { PAYMENT_CHOICES } from '../utils/session-form';
import { NativeSelect as Select } from '@/components/ui/native-select';
import { ScopeField } from './scope-field';

type PanelProps = { workspaceId: string; session: CalendarSession; onDone: () => void };
type MoveProps = PanelProps & { onMoved: () => void };

/** «Mover sesión»: what a drag does, by keyboard. Keeps the length when the start changes; closes once moved (the toast offers «Deshacer»). */
export function MovePanel({ workspaceId: wid, session: s, onDone, onMoved }: MoveProps) {
  const [day, setDay] = useState(s.day);
  const [from, setFrom] = useState(s.from);
  const [to, setTo] = useState(s.to);
  const [scope, setScope] = useState<Scope>('this');
  const [error, setError] = useState<string | null>(null);
  const { move, pending } = useMoveSession(wid);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const [f, t] = [normalizeTime(from), normalizeTime(to)];
    if (!isIsoDay(day)) return setError('Fecha inválida: escríbela como DD/MM/AAAA');
    if (!f || !t) return setError('Hora inválida: escríbela como HH:MM');
    if (minutesBetween(f, t) <= 0) return setError('La hora de inicio debe ser anterior a la hora de fin');
    setError(null);
    if (day === s.day && f === s.from && t === s.to) return onDone();
    if (await move(s, { day, from: f, to: t }, s.series ? scope : undefined)) onMoved();
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Mover sesión">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-[1fr_6rem_6rem]">
        <Field label="Nuevo día" className="col-span-2 sm:col-span-1">
          <DayInput value={day} onChange={setDay} />
        </Field>
        <Field label="De">
          <TimeInput
            value={from}
            onChange={(next) => {
              // The length stays: a 50-minute session moved to 16:00 ends at 16:50.
              if (isHHmm(from) && isHHmm(to) && isHHmm(next) && minutesBetween(from, to) > 0)
                setTo(addToTime(next, minutesBetween(from, to)));
              setFrom(next);
            }}
          />
        </Field>
        <Field label="A">
          <TimeInput value={to} onChange={setTo} />
        </Field>
      </div>
      {error ? (
        <p role="alert" className="text-[0.8125rem] font-medium text-destructive">
          {error}
        </p>
      ) : null}
      {s.series ? <ScopeField name="move-scope" value={scope} onChange={setScope} legend="¿Qué sesiones de la serie se mueven?" /> : null}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Volver
        </Button>
        <Button type="submit" loading={pending}>
          Mover
        </Button>
      </DialogFooter>
    </form>
  );
}

/** Why it is canceled (no-shows and late cancellations count apart); for a series, which ones. */
export function CancelPanel({ workspaceId: wid, session: s, onDone }: PanelProps) {
  const [reason, setReason] = useState<CancellationReason | ''>('');
  const [scope, setScope] = useState<Scope>('this');
  const [error, setError] = useState<string | null>(null);
  const cancel = useCancelSession(wid);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!reason) return setError('Indica el motivo de la cancelación');
    cancel.mutate(
      { id: s.id, reason, scope: s.series ? scope : undefined },
      {
        onSuccess: (res) => {
          toast.success(res.canceled > 1 ? `${res.canceled} sesiones canceladas` : 'Sesión cancelada', { description: s.patient.name });
          onDone();
        },
        onError: (err) => setError(messageOf(err)),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Cancelar sesión">
      <fieldset className="grid gap-2">
        <legend className="mb-1.5 text-sm font-medium">Motivo</legend>
        {CANCELLATION_REASON.values.map((r) => (
          <label
            key={r}
            className="flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm has-checked:border-primary has-checked:bg-accent"
          >
            <input
              type="radio"
              name="reason"
              value={r}
              checked={reason === r}
              onChange={() => {
                setReason(r);
                setError(null);
              }}
              className="size-4 accent-[var(--primary)]"
            />
            {CANCELLATION_REASON.labels[r]}
          </label>
        ))}
      </fieldset>
      {s.series ? (
        <ScopeField name="cancel-scope" value={scope} onChange={setScope} legend="¿Qué sesiones de la serie se cancelan?" />
      ) : null}
      {error ? (
        <p role="alert" className="text-[0.8125rem] font-medium text-destructive">
          {error}
        </p>
      ) : null}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Volver
        </Button>
        <Button type="submit" variant="destructive" loading={cancel.isPending}>
          {s.series && scope !== 'this' ? 'Cancelar sesiones' : 'Cancelar sesión'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** The payment's type (cash, card, transfer…); online payments come from the payment provider, not from here. */
export function PayPanel({ workspaceId: wid, session: s, onDone }: PanelProps) {
  const [type, setType] = useState<PaymentType>('cash');
  const pay = usePaySession(wid);
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    pay.mutate(
      { id: s.id, paymentType: type },
      {
        onSuccess: () => {
          toast.success('Sesión marcada como pagada', { description: `${s.patient.name} · ${PAYMENT_TYPE.labels[type]}` });
          onDone();
        },
        onError: (err) => setError(messageOf(err)),
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Marcar como pagada">
      <Field label="Forma de pago" error={error ?? undefined}>
        <Select
          value={type}
          onChange={(e) => setType(e.target.value as PaymentType)}
          options={PAYMENT_CHOICES.map((p) => ({ value: p, label: PAYMENT_TYPE.labels[p] }))}
        />
      </Field>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Volver
        </Button>
        <Button type="submit" loading={pay.isPending}>
          Marcar como pagada
        </Button>
      </DialogFooter>
    </form>
  );
}
