import { useId, useState } from 'react';
import { eurosToCents, refundProblemOf } from '@divan/core';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { DialogForm } from '@/components/ui/form-dialog';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { formatCurrency } from '@/lib/format';
import { problemOf } from '../utils/problem';

export type RefundRequest = { amountCents?: number; reason: string };

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  number: string | null;
  /** What was charged by card and what is already returned (or on its way). */
  chargedCents: number;
  refundableCents: number;
  /** Refunds; a rejection is shown in the dialog, which stays open with what was typed. */
  onRefund: (r: RefundRequest) => Promise<unknown>;
};

/** «Devolver»: all that is left by default, or part of it in euros, always with a reason (it goes on the rectifying invoice). */
export function RefundDialog({ open, onOpenChange, ...rest }: Props) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent className="max-w-md">
          <RefundForm {...rest} onClose={() => onOpenChange(false)} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

function RefundForm({
  number,
  chargedCents,
  refundableCents,
  onRefund,
  onClose,
}: Omit<Props, 'open' | 'onOpenChange'> & { onClose: () => void }) {
  const [whole, setWhole] = useState(true);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = useId();

  const cents = whole ? refundableCents : eurosToCents(amount);
  const valid = cents !== null && !Number.isNaN(cents) && !refundProblemOf(chargedCents, chargedCents - refundableCents, cents);
  const amountError =
    !submitted || whole
      ? undefined
      : cents === null
        ? 'Escribe el importe a devolver.'
        : !valid
          ? `Escribe un importe mayor que 0 y como mucho ${formatCurrency(refundableCents)}, por ejemplo 30 o 30,50.`
          : undefined;
  const reasonError = submitted && !reason.trim() ? 'Escribe el motivo: aparece en la factura rectificativa.' : undefined;

  const submit = async () => {
    setSubmitted(true);
    if (!reason.trim() || !valid) return;
    setPending(true);
    setError(null);
    try {
      await onRefund(whole ? { reason: reason.trim() } : { amountCents: cents, reason: reason.trim() });
      onClose();
    } catch (e) {
      setError(problemOf(e));
      setPending(false);
    }
  };

  const option = (checked: boolean) =>
    cn('flex cursor-pointer items-start gap-3 rounded-lg border p-3 text-sm', checked && 'border-primary/50 bg-accent/40');
  return (
    <DialogForm
      title={`Devolver el pago de la factura ${number ?? ''}`}
      description={`Se devuelve a la tarjeta con la que se pagó (${formatCurrency(refundableCents)} por devolver) y se emite una factura rectificativa por el importe devuelto.`}
      error={error}
      pending={pending}
      confirmLabel={valid && cents !== null ? `Devolver ${formatCurrency(cents)}` : 'Devolver'}
      confirmVariant="destructive"
      onConfirm={submit}
      onCancel={onClose}
    >
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Importe</legend>
        <label className={option(whole)}>
          <input
            type="radio"
            name={name}
            className="mt-0.5 accent-[var(--color-primary)]"
            checked={whole}
            onChange={() => setWhole(true)}
          />
          <span>Todo: {formatCurrency(refundableCents)}</span>
        </label>
        <label className={option(!whole)}>
          <input
            type="radio"
            name={name}
            className="mt-0.5 accent-[var(--color-primary)]"
            checked={!whole}
            onChange={() => setWhole(false)}
          />
          <span>Una parte</span>
        </label>
      </fieldset>
      {!whole ? (
        <Field label="Importe a devolver (€)" error={amountError} hint={`Como mucho ${formatCurrency(refundableCents)}.`}>
          <Input
            inputMode="decimal"
            autoComplete="off"
            placeholder="30,00"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            autoFocus
          />
        </Field>
      ) : null}
      <Field label="Motivo" error={reasonError} hint="Aparece en la factura rectificativa.">
        <Textarea rows={3} maxLength={300} value={reason} onChange={(e) => setReason(e.target.value)} />
      </Field>
    </DialogForm>
  );
}
