import type { ReactNode } from 'react';
import { Plus, Trash2 } from 'lucide-react';
import { INVOICE_ITEM_KINDS, type InvoiceItemKind } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { formatCurrency } from '@/lib/format';
import { cn } from '@/lib/cn';
import {
  emptyLine,
  lineErrors,
  VAT_CHOICES,
  WITHHOLDING_CHOICES,
  type LineDraft,
  type VatChoice,
  type WithholdingChoice,
} from '../utils/editor-model';

const KIND_LABELS: Record<InvoiceItemKind, string> = { therapy: 'Terapia', report: 'Informe', training: 'Formación', other: 'Otro' };
const KIND_OPTIONS = INVOICE_ITEM_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }));
const VAT_LABELS: Record<VatChoice, string> = {
  auto: 'Según el tipo',
  E1: 'Exenta (art. 20)',
  '21': '21 %',
  '10': '10 %',
  '4': '4 %',
  '0': '0 % (no exenta)',
};
const VAT_OPTIONS = VAT_CHOICES.map((v) => ({ value: v, label: VAT_LABELS[v] }));
const WITHHOLDING_LABELS: Record<WithholdingChoice, string> = {
  auto: 'Según quién paga',
  '0': 'Sin retención',
  '7': '7 %',
  '15': '15 %',
  '19': '19 %',
};
const WITHHOLDING_OPTIONS = WITHHOLDING_CHOICES.map((v) => ({ value: v, label: WITHHOLDING_LABELS[v] }));
/** A private payer (the patient, a guardian) never withholds: the only choice, shown but not offered. */
const NO_WITHHOLDING = [{ value: 'none', label: 'Sin retención' }];

type Props = {
  lines: LineDraft[];
  totals: (number | null)[];
  showErrors: boolean;
  onChange: (lines: LineDraft[]) => void;
  /** Whether the payer withholds IRPF (a company, a professional, an insurer); a private person never does. */
  buyerWithholds: boolean;
  /** «Añadir sesiones», when a patient is chosen. */
  sessionsButton: ReactNode;
};

function Err({ id, text }: { id: string; text: string | undefined }) {
  return text ? (
    <p id={id} role="alert" className="text-[0.8125rem] font-medium text-destructive">
      {text}
    </p>
  ) : null;
}

/** The invoice's lines as a small spreadsheet on wide screens, one card each on phones. */
export function LinesEditor({ lines, totals, showErrors, onChange, buyerWithholds, sessionsButton }: Props) {
  const set = (key: string, patch: Partial<LineDraft>) => onChange(lines.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  return (
    <div className="grid gap-3">
      {lines.length === 0 ? (
        <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">
          Sin líneas todavía: añade las sesiones realizadas del paciente o un concepto libre.
        </p>
      ) : (
        <>
          <div
            className="hidden grid-cols-[minmax(0,1fr)_9rem_6rem_8rem_7rem_2.5rem] gap-2 px-1 text-[0.8125rem] font-medium text-muted-foreground md:grid"
            aria-hidden
          >
            <span>Concepto</span>
            <span>Tipo</span>
            <span>Cantidad</span>
            <span>Precio (€)</span>
            <span className="text-right">Total</span>
            <span />
          </div>
          <ol className="grid gap-3 md:gap-2" aria-label="Líneas de la factura">
            {lines.map((l, n) => {
              const errors = showErrors ? lineErrors(l) : {};
              const id = `line-${l.key}`;
              const total = totals[n] ?? null;
              return (
                <li
                  key={l.key}
                  className="grid gap-2 rounded-lg border p-3 md:grid-cols-[minmax(0,1fr)_9rem_6rem_8rem_7rem_2.5rem] md:items-start md:border-0 md:p-0"
                >
                  <div className="grid gap-1">
                    <span className="text-xs text-muted-foreground md:hidden" aria-hidden>
                      Concepto
                    </span>
                    <Input
                      aria-label={`Concepto de la línea ${n + 1}`}
                      placeholder="Concepto"
                      maxLength={300}
                      value={l.description}
                      aria-invalid={errors.description ? true : undefined}
                      aria-describedby={errors.description ? `${id}-d` : undefined}
                      onChange={(e) => set(l.key, { description: e.target.value })}
                    />
                    <Err id={`${id}-d`} text={errors.description} />
                  </div>
                  <div className="grid grid-cols-2 gap-2 md:contents">
                    <div className="col-span-2 grid gap-1 md:col-span-1">
                      <span className="text-xs text-muted-foreground md:hidden" aria-hidden>
                        Tipo
                      </span>
                      <NativeSelect
                        aria-label={`Tipo de la línea ${n + 1}`}
                        options={KIND_OPTIONS}
                        value={l.itemKind}
                        onChange={(e) => set(l.key, { itemKind: e.target.value as InvoiceItemKind })}
                      />
                    </div>
                    <div className="grid content-start gap-1">
                      <span className="text-xs text-muted-foreground md:hidden" aria-hidden>
                        Cantidad
                      </span>
                      <Input
                        aria-label={`Cantidad de la línea ${n + 1}`}
                        inputMode="decimal"
                        value={l.quantity}
                        className="tabular-nums"
                        aria-invalid={errors.quantity ? true : undefined}
                        aria-describedby={errors.quantity ? `${id}-q` : undefined}
                        onChange={(e) => set(l.key, { quantity: e.target.value })}
                      />
                      <Err id={`${id}-q`} text={errors.quantity} />
                    </div>
                    <div className="grid content-start gap-1">
                      <span className="text-xs text-muted-foreground md:hidden" aria-hidden>
                        Precio (€)
                      </span>
                      <Input
                        aria-label={`Precio de la línea ${n + 1}`}
                        inputMode="decimal"
                        placeholder="0,00"
                        value={l.price}
                        className="tabular-nums"
                        aria-invalid={errors.price ? true : undefined}
                        aria-describedby={errors.price ? `${id}-p` : undefined}
                        onChange={(e) => set(l.key, { price: e.target.value })}
                      />
                      <Err id={`${id}-p`} text={errors.price} />
                    </div>
                  </div>
                  <div className="flex items-center justify-between gap-2 md:contents">
                    <span
                      className={cn(
                        'text-sm font-medium tabular-nums md:flex md:h-10 md:items-center md:justify-end',
                        total === null && 'text-muted-foreground',
                      )}
                    >
                      <span className="text-muted-foreground md:hidden">Total: </span>
                      {total === null ? '—' : formatCurrency(total)}
                    </span>
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      aria-label={`Quitar la línea ${n + 1}`}
                      onClick={() => onChange(lines.filter((x) => x.key !== l.key))}
                    >
                      <Trash2 aria-hidden />
                    </Button>
                  </div>
                  {/* Taxes follow the line's kind and the payer unless chosen here (a report that is health care, a different withholding). */}
                  <div className="grid gap-2 text-[0.8125rem] text-muted-foreground sm:grid-cols-2 md:col-span-6 md:flex md:items-center md:gap-x-4 md:pb-2">
                    <label className="grid gap-1 md:flex md:items-center md:gap-2">
                      IVA
                      <NativeSelect
                        aria-label={`IVA de la línea ${n + 1}`}
                        options={VAT_OPTIONS}
                        value={l.vat}
                        onChange={(e) => set(l.key, { vat: e.target.value as VatChoice })}
                        className="w-full md:w-48"
                      />
                    </label>
                    <label className="grid gap-1 md:flex md:items-center md:gap-2">
                      IRPF
                      {buyerWithholds ? (
                        <NativeSelect
                          aria-label={`Retención de la línea ${n + 1}`}
                          options={WITHHOLDING_OPTIONS}
                          value={l.withholding}
                          onChange={(e) => set(l.key, { withholding: e.target.value as WithholdingChoice })}
                          className="w-full md:w-48"
                        />
                      ) : (
                        <NativeSelect
                          aria-label={`Retención de la línea ${n + 1}`}
                          aria-describedby={`${id}-w`}
                          options={NO_WITHHOLDING}
                          value="none"
                          disabled
                          className="w-full md:w-48"
                        />
                      )}
                    </label>
                    {buyerWithholds ? null : (
                      <span id={`${id}-w`} className="md:flex-1">
                        Un particular no practica retención: solo la aplican empresas, profesionales y aseguradoras.
                      </span>
                    )}
                  </div>
                </li>
              );
            })}
          </ol>
        </>
      )}
      <div className="flex flex-wrap gap-2">
        {sessionsButton}
        <Button type="button" variant="outline" onClick={() => onChange([...lines, emptyLine()])}>
          <Plus aria-hidden /> Añadir concepto
        </Button>
      </div>
    </div>
  );
}
