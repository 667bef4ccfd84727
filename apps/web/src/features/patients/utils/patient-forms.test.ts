import { describe, expect, it } from 'vitest';
import { createPatientForm, emptyCreateValues, treatmentFormSchema, type TreatmentValues } from './patient-forms';

const treatment: TreatmentValues = {
  status: 'active',
  startDate: '01/02/2025',
  endDate: '',
  endingReason: '',
  motive: 'anxiety',
  sessionType: 'individual',
  medication: '',
  referralSource: '',
  insuranceCompany: '',
  insurancePolicy: '',
  sessionPrice: '60,50',
  sessionModality: 'online',
};

const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('patient forms judged by the core contracts', () => {
  it('turns a new patient form into the create body: ISO dates, cents, nulls for blanks', () => {
    const values = emptyCreateValues();
    values.firstName = 'Ana';
    values.birthdate = '15/03/1990';
    values.billingInfo.taxId = '12345678z';
    values.treatment.sessionPrice = '55';
    values.treatment.motive = 'anxiety';
    const r = createPatientForm.safeParse(values);
    expect(r.success).toBe(true);
    expect(r.data).toMatchObject({
      firstName: 'Ana',
      birthdate: '1990-03-15',
      email: null,
      gender: null,
      billingInfo: { taxId: '12345678Z', country: 'España' },
      treatment: { sessionPrice: 5500, motive: 'anxiety', referralSource: null },
    });
    expect(r.data?.assignedTherapistId).toBeUndefined();
  });

  it('puts the Spanish messages on the fields', () => {
    const values = emptyCreateValues();
    values.email = 'no-es-un-email';
    values.birthdate = '31/02/1990';
    values.billingInfo.taxId = '12345678A';
    values.treatment.sessionPrice = 'mucho';
    expect(messages(createPatientForm.safeParse(values))).toEqual({
      firstName: 'El campo nombre es obligatorio',
      email: 'Email inválido',
      birthdate: 'Fecha inválida',
      'billingInfo.taxId': 'DNI/NIE inválido',
      'treatment.sessionPrice': 'Precio inválido',
    });
  });

  it('refuses to end a treatment without end date and reason', () => {
    expect(messages(treatmentFormSchema.safeParse({ ...treatment, status: 'inactive' }))).toEqual({
      endDate: 'El campo fecha de fin es obligatorio',
      endingReason: 'El campo motivo de finalización es obligatorio',
    });
    const ended = treatmentFormSchema.safeParse({ ...treatment, status: 'inactive', endDate: '30/06/2025', endingReason: 'completed' });
    expect(ended.data).toMatchObject({ status: 'inactive', endDate: '2025-06-30', endingReason: 'completed', sessionPrice: 6050 });
  });

  it('clears the end of a treatment that goes on', () => {
    const r = treatmentFormSchema.safeParse({ ...treatment, status: 'paused', endDate: '30/06/2025', endingReason: 'other' });
    expect(r.data).toMatchObject({ status: 'paused', endDate: null, endingReason: null });
  });
});
