import type { ReactNode } from 'react';
import { get, useFormContext, type FieldValues } from 'react-hook-form';
import { GENDER, INSURANCE_COMPANY, MODALITY, REFERRAL_SOURCE, SESSION_TYPE, TREATMENT_MOTIVE } from '@divan/core';
import { AddressFields } from '@/components/address-fields';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { NativeSelect, optionsOf, type Option } from '@/components/ui/native-select';

/**
 * The patient's fields, shared by "Nuevo paciente" and the Datos tab. They read the surrounding
 * form (FormProvider); `prefix` places them under `billingInfo.` or `treatment.` where needed.
 */
function useField(prefix: string) {
  const form = useFormContext<FieldValues>();
  const name = (n: string) => (prefix ? `${prefix}.${n}` : n);
  return {
    reg: (n: string) => form.register(name(n)),
    error: (n: string) => (get(form.formState.errors, name(n)) as { message?: string } | undefined)?.message,
  };
}

export function FieldGroup({
  title,
  description,
  children,
  className,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <fieldset className={cn('grid gap-4', className)}>
      <legend className="mb-4 grid gap-0.5">
        <span className="text-[0.9375rem] font-semibold">{title}</span>
        {description ? <span className="text-[0.8125rem] text-muted-foreground">{description}</span> : null}
      </legend>
      <div className="grid gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}

function Select({
  prefix,
  name,
  label,
  options,
  placeholder = 'Sin indicar',
  className,
}: {
  prefix: string;
  name: string;
  label: string;
  options: Option[];
  placeholder?: string;
  className?: string;
}) {
  const f = useField(prefix);
  return (
    <Field label={label} error={f.error(name)} className={className}>
      <NativeSelect options={options} placeholder={placeholder} {...f.reg(name)} />
    </Field>
  );
}

export function PersonalFields({ prefix = '' }: { prefix?: string }) {
  const f = useField(prefix);
  return (
    <>
      <Field label="Nombre" error={f.error('firstName')}>
        <Input autoComplete="off" {...f.reg('firstName')} />
      </Field>
      <Field label="Apellidos" error={f.error('lastName')}>
        <Input autoComplete="off" {...f.reg('lastName')} />
      </Field>
      <Field label="Email" error={f.error('email')}>
        <Input type="email" autoComplete="off" {...f.reg('email')} />
      </Field>
      <Field label="Teléfono" error={f.error('phone')} hint="Si no es español, con su prefijo (+33…)">
        <Input type="tel" inputMode="tel" autoComplete="off" placeholder="612 34 56 78" {...f.reg('phone')} />
      </Field>
      <Field label="Fecha de nacimiento" error={f.error('birthdate')} hint="DD/MM/AAAA">
        <Input inputMode="numeric" placeholder="DD/MM/AAAA" autoComplete="off" {...f.reg('birthdate')} />
      </Field>
      <Select prefix={prefix} name="gender" label="Género" options={optionsOf(GENDER)} />
    </>
  );
}

export function BillingFields({ prefix = 'billingInfo' }: { prefix?: string }) {
  const f = useField(prefix);
  return (
    <>
      <Field label="Nombre fiscal" error={f.error('fullName')} hint="Si factura otra persona (p. ej., un tutor)">
        <Input autoComplete="off" {...f.reg('fullName')} />
      </Field>
      <Field label="DNI/NIE" error={f.error('taxId')}>
        <Input autoComplete="off" placeholder="12345678Z" className="uppercase" {...f.reg('taxId')} />
      </Field>
      <AddressFields input={f.reg} error={f.error} wide line2Label="Piso, puerta… (opcional)" />
    </>
  );
}

/** Motive, session type and the practicalities of the treatment (status and dates are separate). */
export function TreatmentDetailFields({ prefix = '', withMedication = false }: { prefix?: string; withMedication?: boolean }) {
  const f = useField(prefix);
  return (
    <>
      <Select prefix={prefix} name="motive" label="Motivo de consulta" options={optionsOf(TREATMENT_MOTIVE, true)} />
      <Select prefix={prefix} name="sessionType" label="Tipo de sesión" options={optionsOf(SESSION_TYPE)} />
      <Select prefix={prefix} name="sessionModality" label="Modalidad" options={optionsOf(MODALITY)} />
      <Field label="Precio por sesión (€)" error={f.error('sessionPrice')} hint="Precio estándar; ej. 60 o 62,50">
        <Input inputMode="decimal" autoComplete="off" placeholder="0,00" {...f.reg('sessionPrice')} />
      </Field>
      <Select prefix={prefix} name="referralSource" label="¿Cómo llegó a la consulta?" options={optionsOf(REFERRAL_SOURCE)} />
      <Select
        prefix={prefix}
        name="insuranceCompany"
        label="Aseguradora"
        options={optionsOf(INSURANCE_COMPANY, true)}
        placeholder="Sin aseguradora"
      />
      <Field label="Número de póliza" error={f.error('insurancePolicy')}>
        <Input autoComplete="off" {...f.reg('insurancePolicy')} />
      </Field>
      {withMedication ? (
        <Field label="Medicación" error={f.error('medication')} className="sm:col-span-2" hint="Fármacos y dosis actuales, si los hay">
          <Textarea rows={3} className="min-h-20" {...f.reg('medication')} />
        </Field>
      ) : null}
    </>
  );
}
