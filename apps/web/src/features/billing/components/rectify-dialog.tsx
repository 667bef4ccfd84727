import { useId, useMemo, useState } from 'react';
import { RECTIFICATION_METHOD, withholds, type Invoice, type RectificationMethod } from '@divan/core';
import { useConfirmDiscard } from '@/components/ui/confirm-discard';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { DialogForm } from '@/components/ui/form-dialog';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { messageOf } from '@/lib/error-message';
import { formatCurrency } from '@/lib/format';
import { cn } from '@/lib/cn';
import type { RectifyLines } from '../api/invoices-api';
import { LinesEditor } from '../editor/lines-editor';
import { bodyOf, buyerKindOf, lineErrors, liveTotals, modelOf, type LineDraft } from '../utils/editor-model';

const HINTS: Record<RectificationMethod, string> = {
  difference: 'La rectificativa recoge la diferencia: aquí, el importe entero en negativo.',
  substitution: 'La rectificativa sustituye a la original: aquí, por una factura vacía.',
};

type Scope = 'cancel' | 'correct';
const SCOPES: { value: Scope; label: string; hint: string }[] = [
  { value: 'cancel', label: 'Anular la factura entera', hint: 'Sus sesiones vuelven a quedar sin facturar.' },
  { value: 'correct', label: 'Corregir conceptos o importes', hint: 'La rectificativa sustituye a la original con las líneas corregidas.' },
];

type Props = {
  invoice: Invoice;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Issues the rectifying invoice; a rejection stays in the dialog. */
  onRectify: (method: RectificationMethod, reason: string, lines: RectifyLines) => Promise<unknown>;
};

/**
 * «Rectificar»: an issued invoice is never edited, it is corrected by a rectifying one in its own
 * series (R…): either the whole invoice cancelled (by difference or by substitution; its sessions can
 * be invoiced again), or its lines corrected (by substitution: the rectifying invoice carries them).
 */
export function RectifyDialog({ invoice, open, onOpenChange, onRectify }: Props) {
  const [scope, setScope] = useState<Scope>('cancel');
  const [method, setMethod] = useState<RectificationMethod>('difference');
  // The invoice as the editor's model, once per invoice (its lines are what «Corregir» starts from).
  const original = useMemo(() => modelOf(invoice), [invoice]);
  const [lines, setLines] = useState<LineDraft[]>(original.lines);
  const [reason, setReason] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = useId();
  const model = { ...original, lines };
  // The invoice's own withholding rate, so the corrected totals match what the server will compute.
  const totals = liveTotals(model, { withholdingRate: invoice.lines.some((l) => l.withholdingRate === 7) ? 7 : 15 });
  const discard = useConfirmDiscard(reason.trim() !== '' || scope === 'correct');
  const reset = () => {
    setReason('');
    setScope('cancel');
    setMethod('difference');
    setLines(original.lines);
    setSubmitted(false);
    setError(null);
  };
  const close = () =>
    discard.confirm(() => {
      reset();
      onOpenChange(false);
    });
  const reasonError = submitted && !reason.trim() ? 'Escribe el motivo: figura en la factura rectificativa.' : undefined;
  const linesProblem = scope === 'correct' && (lines.length === 0 || lines.some((l) => Object.keys(lineErrors(l)).length > 0));

  const submit = async () => {
    setSubmitted(true);
    if (!reason.trim() || linesProblem) return;
    setPending(true);
    setError(null);
    try {
      if (scope === 'cancel') await onRectify(method, reason.trim(), []);
      else
        await onRectify(
          'substitution',
          reason.trim(),
          (bodyOf(model).lines ?? []).map(({ sessionId: _s, ...l }) => l),
        );
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
        <DialogContent className={scope === 'correct' ? 'max-w-4xl' : 'max-w-lg'}>
          <DialogForm
            title={`Rectificar la factura ${invoice.number ?? ''}`}
            description={`Se emitirá una factura rectificativa de la factura de ${formatCurrency(invoice.totalCents)}. No se puede deshacer.`}
            error={error}
            pending={pending}
            confirmLabel="Emitir rectificativa"
            confirmVariant="destructive"
            onConfirm={submit}
            onCancel={close}
          >
            <Choice legend="Qué corrige" name={`${name}-scope`} options={SCOPES} value={scope} onChange={setScope} />
            {scope === 'cancel' ? (
              <Choice
                legend="Método"
                name={`${name}-method`}
                options={RECTIFICATION_METHOD.values.map((m) => ({ value: m, label: RECTIFICATION_METHOD.labels[m], hint: HINTS[m] }))}
                value={method}
                onChange={setMethod}
              />
            ) : (
              <div className="grid gap-3">
                <LinesEditor
                  lines={lines}
                  totals={totals.lineTotals}
                  showErrors={submitted}
                  onChange={setLines}
                  buyerWithholds={withholds(buyerKindOf(model))}
                  sessionsButton={null}
                />
                <p className="text-right text-sm">
                  Total corregido: <strong className="tabular-nums">{formatCurrency(totals.totalCents)}</strong>
                </p>
                {submitted && lines.length === 0 ? (
                  <p className="text-[0.8125rem] font-medium text-destructive">Deja al menos una línea, o anula la factura entera.</p>
                ) : null}
              </div>
            )}
            <Field label="Motivo" error={reasonError} hint="P. ej.: error en los datos del paciente, sesión facturada dos veces.">
              <Textarea rows={3} maxLength={300} value={reason} onChange={(e) => setReason(e.target.value)} />
            </Field>
          </DialogForm>
        </DialogContent>
      </Dialog>
      {discard.dialog}
    </>
  );
}

function Choice<T extends string>({
  legend,
  name,
  options,
  value,
  onChange,
}: {
  legend: string;
  name: string;
  options: { value: T; label: string; hint: string }[];
  value: T;
  onChange: (v: T) => void;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {options.map((o) => (
        <label
          key={o.value}
          className={cn(
            'flex cursor-pointer items-start gap-3 rounded-lg border p-3 text-sm',
            value === o.value && 'border-primary/50 bg-accent/40',
          )}
        >
          <input
            type="radio"
            name={name}
            value={o.value}
            checked={value === o.value}
            onChange={() => onChange(o.value)}
            className="mt-0.5 accent-[var(--color-primary)]"
          />
          <span className="grid gap-0.5">
            <span className="font-medium">{o.label}</span>
            <span className="text-muted-foreground">{o.hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
