import { describe, expect, it } from 'vitest';
import { ACTIONS, SUBJECT_NAMES, checkPermissions, canOn, defineAbility, scopeFor, type Permission } from './permissions';
import { permitsAny, permitsOn } from './permits';
import { DEFAULT_ROLES } from './default-roles';
import { featuresOf, maxSeatsOf, trialStatus } from './plans';

describe('permission lists', () => {
  it('accepts valid lists and names each kind of invalid one', () => {
    expect(
      checkPermissions([
        { action: 'read', subject: 'patient_files', ownOnly: true },
        { action: 'manage', subject: 'sessions' },
      ]),
    ).toBeNull();
    expect(checkPermissions([])).toBe('permission_missing');
    expect(checkPermissions([{ action: 'create', subject: 'workspace_profile' }])).toBe('invalid_action_combination');
    expect(checkPermissions([{ action: 'read', subject: 'roles', ownOnly: true }])).toBe('invalid_action_combination');
    expect(
      checkPermissions([
        { action: 'manage', subject: 'invoices' },
        { action: 'read', subject: 'invoices' },
      ]),
    ).toBe('invalid_action_combination');
    expect(
      checkPermissions([
        { action: 'read', subject: 'invoices' },
        { action: 'read', subject: 'invoices', ownOnly: true },
      ]),
    ).toBe('duplicate_permissions');
    expect(checkPermissions([{ action: 'fly', subject: 'invoices' } as unknown as Permission])).toBe('invalid_permission');
    expect(checkPermissions([{ action: 'read', subject: 'spaceships' } as unknown as Permission])).toBe('invalid_permission');
  });

  it('every default role is itself valid', () => {
    for (const roles of Object.values(DEFAULT_ROLES)) for (const r of roles) expect(checkPermissions(r.permissions), r.name).toBeNull();
  });
});

describe('abilities', () => {
  it('permitsAny and permitsOn answer as the CASL ability does, for every action, subject and owner', () => {
    const lists: { isAdmin: boolean; permissions: Permission[] }[] = [
      { isAdmin: true, permissions: [] },
      { isAdmin: false, permissions: [] },
      ...Object.values(DEFAULT_ROLES)
        .flat()
        .map((r) => ({ isAdmin: false, permissions: r.permissions as Permission[] })),
      {
        isAdmin: false,
        permissions: [
          { action: 'manage', subject: 'sessions', ownOnly: true },
          { action: 'read', subject: 'patient_files', ownOnly: true },
          { action: 'update', subject: 'invoices' },
        ],
      },
    ];
    let yes = 0;
    for (const input of lists) {
      const ability = defineAbility({ userId: 'u1', ...input });
      for (const action of ACTIONS)
        for (const subject of SUBJECT_NAMES) {
          expect(permitsAny(input, action, subject), `${action} ${subject}`).toBe(ability.can(action, subject));
          for (const ownerId of ['u1', 'u2', null])
            expect(permitsOn({ userId: 'u1', ...input }, action, subject, { ownerId }), `${action} ${subject} of ${ownerId}`).toBe(
              canOn(ability, action, subject, { ownerId }),
            );
          if (permitsAny(input, action, subject)) yes++;
        }
    }
    // Both answers occur: the comparison is not between two constant functions.
    expect(yes).toBeGreaterThan(0);
    expect(yes).toBeLessThan(lists.length * ACTIONS.length * SUBJECT_NAMES.length);
  });

  const clinicTherapist = DEFAULT_ROLES.clinic.find((r) => r.name === 'Terapeuta')!;
  const reception = DEFAULT_ROLES.clinic.find((r) => r.name === 'Recepción')!;

  it('turns "is owner" into a scope on the owner, and full access into all', () => {
    const t = defineAbility({ userId: 'u1', isAdmin: false, permissions: clinicTherapist.permissions });
    expect(scopeFor(t, 'read', 'patient_files', 'u1')).toEqual({ kind: 'own', ownerId: 'u1' });
    expect(canOn(t, 'update', 'patient_histories', { ownerId: 'u1' })).toBe(true);
    expect(canOn(t, 'update', 'patient_histories', { ownerId: 'u2' })).toBe(false);
    expect(scopeFor(t, 'read', 'workspace_billing', 'u1')).toEqual({ kind: 'none' });
    const admin = defineAbility({ userId: 'a', isAdmin: true, permissions: [] });
    expect(scopeFor(admin, 'delete', 'patient_files', 'a')).toEqual({ kind: 'all' });
  });

  it('reception schedules and bills but reads no clinical data', () => {
    const r = defineAbility({ userId: 'r', isAdmin: false, permissions: reception.permissions });
    expect(r.can('create', 'sessions')).toBe(true);
    expect(r.can('create', 'invoices')).toBe(true);
    for (const s of ['patient_histories', 'patient_documents', 'patient_treatment'] as const) expect(r.can('read', s), s).toBe(false);
  });
});

describe('plans and the free trial', () => {
  const now = new Date('2026-11-22T10:00:00Z');
  it('counts days left, the last day and the end', () => {
    expect(trialStatus({ id: null, freeTrialEnd: '2026-11-30T10:00:00Z' }, now)).toEqual({ kind: 'days_left', days: 8 });
    expect(trialStatus({ id: null, freeTrialEnd: '2026-11-22T20:00:00Z' }, now)).toEqual({ kind: 'last_day' });
    expect(trialStatus({ id: null, freeTrialEnd: '2026-11-21T10:00:00Z' }, now)).toEqual({ kind: 'ended' });
    expect(trialStatus({ id: 'basic', freeTrialEnd: '2026-11-21T10:00:00Z' }, now)).toEqual({ kind: 'none' });
  });
  it('grants the plan features, the trial ones, or Basic without a plan', () => {
    expect(featuresOf({ id: 'basic', freeTrialEnd: null }, now).activePatientLimit).toBe(30);
    expect(featuresOf({ id: null, freeTrialEnd: '2026-11-30T10:00:00Z' }, now).canCreateInvoiceBatch).toBe(true);
    expect(featuresOf({ id: null, freeTrialEnd: '2026-11-01T10:00:00Z' }, now).sessionReminders).toBe(1);
    expect(maxSeatsOf({ id: 'team', freeTrialEnd: null, seats: 12 }, now)).toBe(12);
    expect(maxSeatsOf({ id: null, freeTrialEnd: '2026-11-01T10:00:00Z', seats: 0 }, now)).toBe(1);
  });
});
