import { describe, expect, it } from 'vitest';
import { DEFAULT_ROLES } from '../workspaces/default-roles';
import { defineAbility, type Permission } from '../workspaces/permissions';
import {
  fieldAccessKey,
  filterDeniedMessage,
  forbiddenWrites,
  readableAcross,
  readableView,
  subjectOfField,
  writeActionFor,
  writeDeniedMessage,
} from '../workspaces/field-access';
import { PATIENT_FIELDS } from './patient-fields';

const role = (template: 'team' | 'clinic', name: string) => DEFAULT_ROLES[template].find((r) => r.name === name)!.permissions;
const ability = (permissions: Permission[], isAdmin = false) => defineAbility({ userId: 'me', isAdmin, permissions });
const summary = {
  id: 'p1',
  firstName: 'Ana',
  taxId: '12345678Z',
  status: 'active',
  motive: 'anxiety',
  sessionType: 'individual',
  treatmentStartDate: '2026-01-01',
  createdAt: 'x',
};
const file = {
  ...summary,
  billingInfo: { city: 'Cádiz', taxId: '12345678Z' },
  treatment: { medication: 'Sertralina' },
  counts: { historyEntries: 3, documents: 2 },
};

describe('the patient field map', () => {
  it('puts treatment and list clinical fields under Tratamiento, billing under facturación, the rest under Fichas', () => {
    expect(subjectOfField(PATIENT_FIELDS, 'treatment.medication')).toBe('patient_treatment');
    expect(subjectOfField(PATIENT_FIELDS, 'motive')).toBe('patient_treatment');
    expect(subjectOfField(PATIENT_FIELDS, 'status')).toBe('patient_treatment');
    expect(subjectOfField(PATIENT_FIELDS, 'billingInfo.taxId')).toBe('patient_billing');
    expect(subjectOfField(PATIENT_FIELDS, 'taxId')).toBe('patient_billing');
    expect(subjectOfField(PATIENT_FIELDS, 'counts.historyEntries')).toBe('patient_histories');
    expect(subjectOfField(PATIENT_FIELDS, 'counts')).toBe('patient_files');
    expect(subjectOfField(PATIENT_FIELDS, 'email')).toBe('patient_files');
    expect(writeActionFor('patient_treatment', 'create')).toBe('update');
    expect(writeActionFor('patient_files', 'create')).toBe('create');
  });

  it('Recepción reads contact and billing, no clinical field and no count of clinical records', () => {
    const view = readableView(ability(role('clinic', 'Recepción')), PATIENT_FIELDS, { ownerId: 'other' }, file);
    expect(Object.keys(view).sort()).toEqual(['billingInfo', 'counts', 'createdAt', 'firstName', 'id', 'taxId']);
    expect(view.counts).toEqual({});
  });

  it('a clinic Terapeuta reads everything of an assigned patient and nothing of another', () => {
    const a = ability(role('clinic', 'Terapeuta'));
    expect(readableView(a, PATIENT_FIELDS, { ownerId: 'me' }, file)).toEqual(file);
    expect(readableView(a, PATIENT_FIELDS, { ownerId: 'other' }, file)).toEqual({ counts: {} });
  });

  it('a role without billing neither reads the tax id nor writes billing', () => {
    const a = ability([
      { action: 'manage', subject: 'patient_files' },
      { action: 'manage', subject: 'patient_treatment' },
    ]);
    expect(Object.keys(readableView(a, PATIENT_FIELDS, {}, summary))).not.toContain('taxId');
    expect(
      forbiddenWrites(a, PATIENT_FIELDS, {}, { firstName: 'A', billingInfo: { taxId: null }, treatment: { motive: 'anxiety' } }, 'create'),
    ).toEqual([{ path: 'billingInfo.taxId', subject: 'patient_billing' }]);
    expect(writeDeniedMessage([{ path: 'billingInfo.taxId', subject: 'patient_billing' }])).toBe(
      'No tienes permiso para editar estos datos: Datos de facturación del paciente.',
    );
  });

  it('Recepción may not write treatment fields, even null; undefined and empty objects write nothing', () => {
    const a = ability(role('clinic', 'Recepción'));
    expect(
      forbiddenWrites(
        a,
        PATIENT_FIELDS,
        {},
        { firstName: 'A', treatment: { medication: 'X', motive: null }, billingInfo: { city: 'Cádiz' } },
        'create',
      ),
    ).toEqual([
      { path: 'treatment.medication', subject: 'patient_treatment' },
      { path: 'treatment.motive', subject: 'patient_treatment' },
    ]);
    expect(forbiddenWrites(a, PATIENT_FIELDS, {}, { firstName: 'A', treatment: {}, lastName: undefined }, 'create')).toEqual([]);
  });

  it('filters by a field only when it is readable on every record the list can show', () => {
    const own = { kind: 'own', ownerId: 'me' } as const;
    const all = { kind: 'all' } as const;
    expect(readableAcross(ability(role('clinic', 'Recepción')), PATIENT_FIELDS, 'motive', all, 'me')).toBe(false);
    expect(readableAcross(ability(role('clinic', 'Recepción')), PATIENT_FIELDS, 'taxId', all, 'me')).toBe(true);
    expect(readableAcross(ability(role('clinic', 'Terapeuta')), PATIENT_FIELDS, 'motive', own, 'me')).toBe(true);
    // Files of everyone, treatment of their own only: a motive filter would tell the others' motives.
    const mixed = ability([
      { action: 'read', subject: 'patient_files' },
      { action: 'read', subject: 'patient_treatment', ownOnly: true },
    ]);
    expect(readableAcross(mixed, PATIENT_FIELDS, 'motive', all, 'me')).toBe(false);
    expect(readableAcross(ability([], true), PATIENT_FIELDS, 'motive', all, 'me')).toBe(true);
    expect(filterDeniedMessage(['patient_treatment'])).toBe('No tienes permiso para filtrar ni ordenar por estos datos: Tratamiento.');
  });

  it('members who read the same fields share a key; others do not', () => {
    const team = fieldAccessKey(ability(role('team', 'Terapeuta')), PATIENT_FIELDS, 'me');
    expect(fieldAccessKey(ability([], true), PATIENT_FIELDS, 'someone')).toBe(team);
    expect(fieldAccessKey(ability(role('clinic', 'Recepción')), PATIENT_FIELDS, 'me')).not.toBe(team);
    expect(fieldAccessKey(ability(role('clinic', 'Terapeuta')), PATIENT_FIELDS, 'me')).not.toBe(
      fieldAccessKey(ability(role('clinic', 'Terapeuta')), PATIENT_FIELDS, 'you'),
    );
  });
});
