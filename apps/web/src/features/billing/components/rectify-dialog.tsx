import { useId, useState } from 'react';
import { RECTIFICATION_METHOD, type Invoice, type RectificationMethod } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useConfirmDiscard } from '@/components/ui/confirm-discard';
import { Dialog, DialogContent, DialogFooter, DialogHeader } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { messageOf } from '@/lib/error-message';
import { formatCurrency } from '@/lib/format';
import { cn } from '@/lib/cn';

const HINTS: Record<RectificationMethod, string> = {
  difference: 'La rectificativa recoge la diferencia: aquí, el importe entero en negativo.',
  substitution: 'La rectificativa sustituye a la original: aquí, por una factura vacía.',
};

type Props = {
  invoice: Pick<Invoice, 'id' | 'number' | 'totalCents'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Issues the rectifying invoice; a rejection stays in the dialog. */
  onRectify: (method: RectificationMethod, reason: string) => Promise<unknown>;
};

/**
 * «Rectificar»: an issued invoice is never edited, it is corrected by a rectifying one in its own
 * series (R…). Without corrected lines, the whole invoice is cancelled, and its sessions can be
 * invoiced again.
 */
export function RectifyDialog({ invoice, open, onOpenChange, onRectify }: Props) {
  const [method, setMethod] = useState<RectificationMethod>('difference');
  const [reason, setReason] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = useId();
  const discard = useConfirmDiscard(reason.trim() !== '');
  const reset = () => {
    setReason('');
    setMethod('difference');
    setSubmitted(false);
    setError(null);
  };
  const close = () => discard.confirm(() => {
    reset();
    onOpenChange(false);
  });
  const reasonError = submitted && !reason.trim() ? 'Escribe el motivo: figura en la factura rectificativa.' : undefined;

  const submit = async () => {
    setSubmitted(true);
    if (!reason.trim()) return;
    setPending(true);
    setError(null);
    try {
      await onRectify(method, reason.trim());
      discard.release();
      reset();
      onOpenChange(false);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <Dialog open={open} onOpenChange={(o) => (o ? onOpenChange(true) : pending ? undefined : close())}>
        <DialogContent className="max-w-lg">
          <form
            className="grid gap-5"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <DialogHeader
              title={`Rectificar la factura ${invoice.number ?? ''}`}
              description={`Se emitirá una factura rectificativa que anula la factura entera (${formatCurrency(invoice.totalCents)}). No se puede deshacer.`}
            />
            {error ? <Alert variant="error">{error}</Alert> : null}
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium">Método</legend>
              {RECTIFICATION_METHOD.values.map((m) => (
                <label
                  key={m}
                  className={cn('flex cursor-pointer items-start gap-3 rounded-lg border p-3 text-sm', method === m && 'border-primary/50 bg-accent/40')}
                >
                  <input type="radio" name={name} value={m} checked={method === m} onChange={() => setMethod(m)} className="mt-0.5 accent-[var(--color-primary)]" />
                  <span className="grid gap-0.5">
                    <span className="font-medium">{RECTIFICATION_METHOD.labels[m]}</span>
                    <span className="text-muted-foreground">{HINTS[m]}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            <Field label="Motivo" error={reasonError} hint="P. ej.: error en los datos del paciente, sesión facturada dos veces.">
              <Textarea rows={3} maxLength={300} value={reason} onChange={(e) => setReason(e.target.value)} />
            </Field>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={close} disabled={pending}>
                Cancelar
              </Button>
              <Button type="submit" variant="destructive" loading={pending}>
                Emitir rectificativa
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
      {discard.dialog}
    </>
  );
}
