import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { ENDING_REASON, TREATMENT_STATUS, type Patient } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { useUnsavedChanges } from '@/lib/unsaved-changes';
import { useSaveForm } from '@/lib/use-save-form';
import { useUpdateTreatment } from '../api/patients-api';
import { NativeSelect, optionsOf } from '@/components/ui/native-select';
import { FieldGroup, TreatmentDetailFields } from '../components/patient-fields';
import { todayDmy } from '../utils/form-schema';
import { placeServerError } from '../utils/errors';
import { treatmentFormSchema, treatmentValuesOf, type TreatmentValues } from '../utils/patient-forms';
import { usePatientDetail } from './patient-context';

type Out = z.output<typeof treatmentFormSchema>;
const known = [
  'status',
  'startDate',
  'endDate',
  'endingReason',
  'motive',
  'sessionType',
  'medication',
  'referralSource',
  'insuranceCompany',
  'insurancePolicy',
  'sessionPrice',
  'sessionModality',
];
const statusHelp = { active: 'En tratamiento', paused: 'Sin sesiones por ahora', inactive: 'Finalizar tratamiento' } as const;

/** Status (ending needs date and reason), motive and practicalities: PUT …/treatment. */
export function TreatmentForm({ treatment }: { treatment: NonNullable<Patient['treatment']> }) {
  const { patient, wid, can } = usePatientDetail();
  const update = useUpdateTreatment(wid, patient.id);
  const editable = can('update', 'patient_treatment');
  const form = useForm<TreatmentValues, unknown, Out>({ resolver: zodResolver(treatmentFormSchema), values: treatmentValuesOf(treatment) });
  const { isDirty, isSubmitting, errors } = form.formState;
  useUnsavedChanges(isDirty && editable);
  const status = useWatch({ control: form.control, name: 'status' });
  const ending = status === 'inactive';

  const chooseStatus = (next: string) => {
    form.setValue('status', next, { shouldDirty: true });
    // Ending now is the usual case: offer today, the therapist can change it.
    if (next === 'inactive' && !form.getValues('endDate')) form.setValue('endDate', todayDmy(), { shouldDirty: true });
    form.clearErrors(['endDate', 'endingReason']);
  };

  const { onSubmit, formError } = useSaveForm(form, {
    save: update.mutateAsync,
    success: (_, body) =>
      body.status === 'inactive' && treatment.status !== 'inactive' ? 'Tratamiento finalizado' : 'Tratamiento guardado',
    placeError: (error, setError) => placeServerError(error, setError, known),
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} noValidate>
        <Card>
          <CardHeader>
            <CardTitle>Tratamiento</CardTitle>
            <CardDescription>Estado, motivo de consulta y condiciones de las sesiones.</CardDescription>
          </CardHeader>
          <CardContent>
            <fieldset disabled={!editable} className="grid gap-8">
              {formError ? <Alert variant="error">{formError}</Alert> : null}
              <div className="grid gap-3">
                <span id="status-label" className="text-sm font-medium">
                  Estado
                </span>
                <div role="radiogroup" aria-labelledby="status-label" className="grid gap-2 sm:grid-cols-3">
                  {TREATMENT_STATUS.values.map((s) => (
                    <label
                      key={s}
                      className={cn(
                        'flex cursor-pointer items-start gap-3 rounded-lg border bg-card p-3 text-sm transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring hover:bg-muted/50',
                        status === s && (s === 'inactive' ? 'border-destructive/50 bg-destructive/5' : 'border-primary bg-accent/60'),
                      )}
                    >
                      <input
                        type="radio"
                        name="status"
                        value={s}
                        checked={status === s}
                        onChange={() => chooseStatus(s)}
                        className="mt-0.5 accent-[var(--primary)]"
                      />
                      <span className="grid gap-0.5">
                        <span className="font-medium">{TREATMENT_STATUS.labels[s]}</span>
                        <span className="text-[0.8125rem] text-muted-foreground">{statusHelp[s]}</span>
                      </span>
                    </label>
                  ))}
                </div>
              </div>
              <FieldGroup title="Fechas">
                <Field label="Fecha de inicio" error={errors.startDate?.message} hint="DD/MM/AAAA">
                  <Input inputMode="numeric" placeholder="DD/MM/AAAA" autoComplete="off" {...form.register('startDate')} />
                </Field>
                {ending ? (
                  <>
                    <Field label="Fecha de fin" error={errors.endDate?.message} hint="DD/MM/AAAA">
                      <Input inputMode="numeric" placeholder="DD/MM/AAAA" autoComplete="off" {...form.register('endDate')} />
                    </Field>
                    <Field label="Motivo de finalización" error={errors.endingReason?.message} className="sm:col-span-2">
                      <NativeSelect options={optionsOf(ENDING_REASON)} placeholder="Elige un motivo" {...form.register('endingReason')} />
                    </Field>
                  </>
                ) : null}
              </FieldGroup>
              <FieldGroup title="Detalles">
                <TreatmentDetailFields withMedication />
              </FieldGroup>
            </fieldset>
          </CardContent>
          {editable ? (
            <CardFooter>
              <Button
                type="button"
                variant="ghost"
                disabled={!isDirty || isSubmitting}
                onClick={() => form.reset(treatmentValuesOf(treatment))}
              >
                Descartar
              </Button>
              <Button
                type="submit"
                loading={isSubmitting}
                disabled={!isDirty}
                variant={ending && treatment.status !== 'inactive' ? 'destructive' : 'default'}
              >
                {ending && treatment.status !== 'inactive' ? 'Finalizar tratamiento' : 'Guardar tratamiento'}
              </Button>
            </CardFooter>
          ) : null}
        </Card>
      </form>
    </FormProvider>
  );
}
