import type { ReactNode } from 'react';
import { BOOKING_PAYMENT, BOOKING_SERVICE_STATUS, MODALITY, TIMESPAN_UNITS, timeZoneOptions, type TimespanUnit } from '@divan/core';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect, optionsOf } from '@/components/ui/native-select';
import { Switch } from '@/components/ui/switch';
import type { ServiceForm } from './service-form-model';

type Props = {
  form: ServiceForm;
  /** The weekly schedule's editor, shown right after what the service is. */
  children?: ReactNode;
  set: <K extends keyof ServiceForm>(key: K, value: ServiceForm[K]) => void;
  errors: Record<string, string | undefined>;
};

const unitOptions = optionsOf(TIMESPAN_UNITS);

/** An amount and its unit (months, days, hours, minutes), one label for both. */
function NoticeField({ label, which, form, set, errors }: Props & { label: string; which: 'min' | 'max' }) {
  const amount = which === 'min' ? 'minNoticeAmount' : 'maxNoticeAmount';
  const unit = which === 'min' ? 'minNoticeUnit' : 'maxNoticeUnit';
  const error = errors[`${which}Notice`];
  const messageId = `${which}-notice-message`;
  return (
    <fieldset className="grid content-start gap-1.5">
      <legend className="mb-1.5 text-sm font-medium">{label}</legend>
      <div className="flex gap-2">
        <Input
          inputMode="numeric"
          className="max-w-20 shrink-0"
          aria-label={`${label}: cantidad`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? messageId : undefined}
          value={form[amount]}
          onChange={(e) => set(amount, e.target.value)}
        />
        <NativeSelect
          className="min-w-0 flex-1"
          aria-label={`${label}: unidad`}
          options={unitOptions}
          value={form[unit]}
          onChange={(e) => set(unit, e.target.value as TimespanUnit)}
        />
      </div>
      {error ? (
        <p id={messageId} role="alert" className="text-[0.8125rem] font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** What the service is, what it costs and who may book it (the schedule is its own editor). */
export function ServiceFields(props: Props) {
  const { form, set, errors } = props;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label="Título" error={errors.title} className="sm:col-span-2">
        <Input value={form.title} maxLength={120} onChange={(e) => set('title', e.target.value)} placeholder="Primera consulta" />
      </Field>
      <Field label="Descripción" error={errors.description} hint="Se muestra en la página de reserva." className="sm:col-span-2">
        <Textarea value={form.description} maxLength={2000} className="min-h-20" onChange={(e) => set('description', e.target.value)} />
      </Field>
      <div className="sm:col-span-2">{props.children}</div>
      <Field label="Precio (€)" error={errors.price}>
        <Input inputMode="decimal" value={form.price} placeholder="60,00" onChange={(e) => set('price', e.target.value)} />
      </Field>
      <Field label="Modalidad" error={errors.modality}>
        <NativeSelect
          options={optionsOf(MODALITY)}
          value={form.modality}
          onChange={(e) => set('modality', e.target.value as ServiceForm['modality'])}
        />
      </Field>
      <Field label="Duración (minutos)" error={errors.duration}>
        <Input inputMode="numeric" value={form.duration} onChange={(e) => set('duration', e.target.value)} />
      </Field>
      <Field label="Descanso entre sesiones (minutos)" error={errors.gap}>
        <Input inputMode="numeric" value={form.gap} onChange={(e) => set('gap', e.target.value)} />
      </Field>
      <NoticeField {...props} which="min" label="Antelación mínima" />
      <NoticeField {...props} which="max" label="Antelación máxima" />
      <Field label="Zona horaria" error={errors.timeZone}>
        <NativeSelect options={timeZoneOptions(form.timeZone)} value={form.timeZone} onChange={(e) => set('timeZone', e.target.value)} />
      </Field>
      <Field label="Límite de reservas por paciente" error={errors.limit} hint="Vacío: sin límite.">
        <Input inputMode="numeric" value={form.limit} onChange={(e) => set('limit', e.target.value)} />
      </Field>
      <Field label="Pago al reservar" error={errors.payment}>
        <NativeSelect
          options={optionsOf(BOOKING_PAYMENT)}
          value={form.payment}
          onChange={(e) => set('payment', e.target.value as ServiceForm['payment'])}
        />
      </Field>
      <Field label="Estado" error={errors.status}>
        <NativeSelect
          options={optionsOf(BOOKING_SERVICE_STATUS)}
          value={form.status}
          onChange={(e) => set('status', e.target.value as ServiceForm['status'])}
        />
      </Field>
      <div className="flex items-center justify-between gap-3 rounded-lg border p-3 sm:col-span-2">
        <Label htmlFor="allow-new-patients" className="grid gap-0.5">
          <span>Admite pacientes nuevos</span>
          <span className="text-[0.8125rem] font-normal text-muted-foreground">
            Quien aún no es paciente puede reservar; se crea su ficha.
          </span>
        </Label>
        <Switch id="allow-new-patients" checked={form.allowNewPatients} onCheckedChange={(v) => set('allowNewPatients', v)} />
      </div>
    </div>
  );
}
