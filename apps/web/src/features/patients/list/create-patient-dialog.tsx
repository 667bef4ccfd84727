import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import { canAny } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useConfirmDiscard } from '@/components/ui/confirm-discard';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PARTY_FIELDS } from '@/lib/address-form';
import { isApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useCreatePatient, useTherapists } from '../api/patients-api';
import { useWorkspaceScope } from '../api/workspace';
import { Modal } from '@/components/ui/modal';
import { NativeSelect } from '@/components/ui/native-select';
import { BillingFields, FieldGroup, PersonalFields, TreatmentDetailFields } from '../components/patient-fields';
import { placeServerError } from '../utils/errors';
import { patientName } from '../utils/format';
import { createPatientForm, emptyCreateValues, type CreateValues } from '../utils/patient-forms';
import type { z } from 'zod';

type Out = z.output<typeof createPatientForm>;
const known = ['firstName', 'lastName', 'email', 'phone', 'birthdate', 'gender', 'assignedTherapistId'].concat(
  PARTY_FIELDS.map((f) => `billingInfo.${f}`),
  ['startDate', 'motive', 'sessionType', 'referralSource', 'insuranceCompany', 'insurancePolicy', 'sessionPrice', 'sessionModality'].map(
    (f) => `treatment.${f}`,
  ),
);

/** "Nuevo paciente": the §3 fields, judged by the shared createPatientBody contract. */
export function CreatePatientDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { workspace, ability } = useWorkspaceScope();
  const create = useCreatePatient(workspace.id);
  const navigate = useNavigate();
  const canAssign = ability.can('update', 'patient_assignment');
  const therapists = useTherapists(workspace.id, open && canAssign && ability.can('read', 'members'));
  const showTreatment = canAny(ability, 'update', 'patient_treatment');
  const showBilling = canAny(ability, 'update', 'patient_billing');
  const [formError, setFormError] = useState<{ text: string; limit: boolean } | null>(null);
  const form = useForm<CreateValues, unknown, Out>({ resolver: zodResolver(createPatientForm), defaultValues: emptyCreateValues() });
  const { isSubmitting, isDirty } = form.formState;
  const discard = useConfirmDiscard(isDirty);

  const closeNow = () => {
    onOpenChange(false);
    form.reset(emptyCreateValues());
    setFormError(null);
  };
  // Esc, ✕ and «Cancelar» ask first when something has been typed.
  const close = (next: boolean) => (next ? onOpenChange(true) : discard.confirm(closeNow));

  const onSubmit = form.handleSubmit(async (body) => {
    setFormError(null);
    try {
      const patient = await create.mutateAsync({
        ...body,
        ...(showBilling ? {} : { billingInfo: undefined }),
        ...(showTreatment ? {} : { treatment: undefined }),
      });
      toast.success(`Ficha de ${patientName(patient)} creada`);
      discard.release();
      closeNow();
      void navigate(`/patients/${patient.id}/overview`);
    } catch (error) {
      const text = placeServerError(error, form.setError, known);
      if (text) setFormError({ text, limit: isApiError(error) && error.code === 'patient_limit_reached' });
    }
  });

  return (
    <Modal
      open={open}
      onOpenChange={close}
      size="lg"
      modalLock={isDirty}
      title="Nuevo paciente"
      description="Solo el nombre es obligatorio; el resto puedes completarlo más adelante."
      footer={
        <>
          <Button variant="ghost" onClick={() => close(false)}>
            Cancelar
          </Button>
          <Button type="submit" form="create-patient" loading={isSubmitting}>
            Crear paciente
          </Button>
        </>
      }
    >
      <FormProvider {...form}>
        <form id="create-patient" onSubmit={onSubmit} noValidate className="grid gap-8">
          {formError ? (
            <Alert variant="error">
              {formError.text}
              {formError.limit ? (
                <>
                  {' '}
                  <Link to="/plans" onClick={closeNow}>
                    Ver planes
                  </Link>
                </>
              ) : null}
            </Alert>
          ) : null}
          <FieldGroup title="Datos personales">
            <PersonalFields />
          </FieldGroup>
          {showTreatment ? (
            <FieldGroup title="Tratamiento" description="Empieza como activo.">
              <Field label="Fecha de inicio" error={form.formState.errors.treatment?.startDate?.message} hint="DD/MM/AAAA">
                <Input inputMode="numeric" placeholder="DD/MM/AAAA" autoComplete="off" {...form.register('treatment.startDate')} />
              </Field>
              <TreatmentDetailFields prefix="treatment" />
            </FieldGroup>
          ) : null}
          {showBilling ? (
            <FieldGroup title="Datos de facturación" description="Para emitir facturas a su nombre.">
              <BillingFields />
            </FieldGroup>
          ) : null}
          {canAssign && therapists.data && therapists.data.length > 1 ? (
            <FieldGroup title="Terapeuta">
              <Field label="Terapeuta asignado" error={form.formState.errors.assignedTherapistId?.message}>
                <NativeSelect
                  placeholder="Sin asignar"
                  options={therapists.data.map((t) => ({ value: t.id, label: t.name }))}
                  {...form.register('assignedTherapistId')}
                />
              </Field>
            </FieldGroup>
          ) : null}
        </form>
      </FormProvider>
      {discard.dialog}
    </Modal>
  );
}
