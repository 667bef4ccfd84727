import { FormProvider, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { PARTY_FIELDS } from '@/lib/address-form';
import { useUnsavedChanges } from '@/lib/unsaved-changes';
import { useSaveForm } from '@/lib/use-save-form';
import { useUpdatePatient } from '../api/patients-api';
import { BillingFields, FieldGroup, PersonalFields } from '../components/patient-fields';
import { placeServerError } from '../utils/errors';
import { infoValuesOf, patientInfoForm, type InfoValues } from '../utils/patient-forms';
import { usePatientDetail } from './patient-context';

type Out = z.output<typeof patientInfoForm>;
const known = ['firstName', 'lastName', 'email', 'phone', 'birthdate', 'gender'].concat(PARTY_FIELDS.map((f) => `billingInfo.${f}`));

/** Personal data and, when the member may see it, billing data: one PATCH. */
export function InfoForm() {
  const { patient, wid, can } = usePatientDetail();
  const update = useUpdatePatient(wid, patient.id);
  const editable = can('update', 'patient_files');
  const billingEditable = can('update', 'patient_billing');
  const form = useForm<InfoValues, unknown, Out>({ resolver: zodResolver(patientInfoForm), values: infoValuesOf(patient) });
  const { isDirty, isSubmitting } = form.formState;
  useUnsavedChanges(isDirty && editable);

  const { onSubmit, formError } = useSaveForm(form, {
    save: (body) => update.mutateAsync(billingEditable ? body : { ...body, billingInfo: undefined }),
    success: 'Datos guardados',
    placeError: (error, setError) => placeServerError(error, setError, known),
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} noValidate>
        <Card>
          <CardHeader>
            <CardTitle>Datos personales{patient.billingInfo ? ' y de facturación' : ''}</CardTitle>
            <CardDescription>
              {editable ? 'Los cambios se guardan al pulsar «Guardar datos».' : 'Solo lectura: no tienes permiso para editar esta ficha.'}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <fieldset disabled={!editable} className="grid gap-8">
              {formError ? <Alert variant="error">{formError}</Alert> : null}
              <FieldGroup title="Datos personales">
                <PersonalFields />
              </FieldGroup>
              {patient.billingInfo ? (
                <fieldset disabled={!billingEditable}>
                  <FieldGroup title="Datos de facturación" description="Nombre fiscal, DNI y dirección con los que se le factura.">
                    <BillingFields />
                  </FieldGroup>
                </fieldset>
              ) : null}
            </fieldset>
          </CardContent>
          {editable ? (
            <CardFooter>
              <Button type="button" variant="ghost" disabled={!isDirty || isSubmitting} onClick={() => form.reset(infoValuesOf(patient))}>
                Descartar
              </Button>
              <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
                Guardar datos
              </Button>
            </CardFooter>
          ) : null}
        </Card>
      </form>
    </FormProvider>
  );
}
