import { useId } from 'react';
import { BUYER_KINDS, BUYER_KIND_LABELS, type BuyerKind } from '@divan/core';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { cn } from '@/lib/cn';
import { PatientPicker } from '@/components/patient-picker';
import type { EditorModel } from '../utils/editor-model';

const OTHER_KINDS = BUYER_KINDS.filter((k) => k !== 'patient').map((k) => ({ value: k, label: BUYER_KIND_LABELS[k] }));

type Props = {
  wid: string;
  model: EditorModel;
  showErrors: boolean;
  onChange: (patch: Partial<EditorModel>) => void;
  onPatient: (p: EditorModel['patient']) => void;
  /** Why this payer needs a tax id (a simplified invoice stops at 400,00 €), or null. */
  taxIdProblem?: string | null;
};

/** Who the invoice is for: a patient (their billing data in the file) and who pays, the patient or a third party. */
export function BuyerSection({ wid, model, showErrors, onChange, onPatient, taxIdProblem = null }: Props) {
  const name = useId();
  const b = model.buyer;
  const setBuyer = (patch: Partial<EditorModel['buyer']>) => onChange({ buyer: { ...b, ...patch } });
  const patientError = showErrors && model.billTo === 'patient' && !model.patient ? 'Elige el paciente, o indica otro pagador.' : undefined;
  const nameError = showErrors && model.billTo === 'other' && !b.fullName.trim() ? 'Escribe el nombre o la razón social.' : undefined;

  return (
    <div className="grid gap-5">
      <Field label="Paciente" error={patientError} hint="Sus sesiones realizadas se pueden añadir como líneas.">
        <PatientPicker workspaceId={wid} value={model.patient} onChange={onPatient} />
      </Field>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Facturar a</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {(
            [
              ['patient', 'El paciente', 'Con los datos de facturación de su ficha.'],
              ['other', 'Otro pagador', 'Tutor, empresa, profesional o aseguradora.'],
            ] as const
          ).map(([value, label, hint]) => (
            <label
              key={value}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-lg border p-3 text-sm',
                model.billTo === value && 'border-primary/50 bg-accent/40',
              )}
            >
              <input
                type="radio"
                name={name}
                value={value}
                checked={model.billTo === value}
                onChange={() => onChange({ billTo: value })}
                className="mt-0.5 accent-[var(--color-primary)]"
              />
              <span className="grid gap-0.5">
                <span className="font-medium">{label}</span>
                <span className="text-muted-foreground">{hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {model.billTo === 'other' ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Tipo de pagador">
            <NativeSelect options={OTHER_KINDS} value={b.kind} onChange={(e) => setBuyer({ kind: e.target.value as BuyerKind })} />
          </Field>
          <Field label="Nombre o razón social" error={nameError}>
            <Input maxLength={150} value={b.fullName} onChange={(e) => setBuyer({ fullName: e.target.value })} />
          </Field>
          <Field
            label="NIF"
            hint={taxIdProblem ?? (b.kind === 'guardian' ? 'DNI o NIE del tutor.' : 'NIF o CIF.')}
            error={showErrors ? (taxIdProblem ?? undefined) : undefined}
          >
            <Input maxLength={20} value={b.taxId} autoCapitalize="characters" onChange={(e) => setBuyer({ taxId: e.target.value })} />
          </Field>
          <Field label="Dirección">
            <Input maxLength={150} value={b.line1} autoComplete="off" onChange={(e) => setBuyer({ line1: e.target.value })} />
          </Field>
          <Field label="Dirección (línea 2)">
            <Input maxLength={150} value={b.line2} autoComplete="off" onChange={(e) => setBuyer({ line2: e.target.value })} />
          </Field>
          <Field label="Código postal">
            <Input maxLength={10} inputMode="numeric" value={b.zipCode} onChange={(e) => setBuyer({ zipCode: e.target.value })} />
          </Field>
          <Field label="Ciudad">
            <Input maxLength={80} value={b.city} onChange={(e) => setBuyer({ city: e.target.value })} />
          </Field>
          <Field label="País">
            <Input maxLength={60} value={b.country} onChange={(e) => setBuyer({ country: e.target.value })} />
          </Field>
        </div>
      ) : null}
    </div>
  );
}
