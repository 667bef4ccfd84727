import { describe, expect, it } from 'vitest';
import { defineAbility, grantRefusal, holdsPermission, permissionLabel, permissionsNotHeld, type Permission } from './permissions';
import { DEFAULT_ROLES } from './default-roles';

/** Nobody grants what they do not hold: the rule the server applies to roles and members. */
const ability = (permissions: Permission[], isAdmin = false) => defineAbility({ userId: 'me', isAdmin, permissions });

describe('holding a permission', () => {
  it('an administrator holds everything, including manage and "is owner" variants', () => {
    const admin = ability([], true);
    expect(holdsPermission(admin, { action: 'manage', subject: 'invoices' })).toBe(true);
    expect(holdsPermission(admin, { action: 'delete', subject: 'patient_histories', ownOnly: true })).toBe(true);
  });

  it('the same action, or manage on the subject, covers it; another action or subject does not', () => {
    const a = ability([
      { action: 'read', subject: 'invoices' },
      { action: 'manage', subject: 'sessions' },
    ]);
    expect(holdsPermission(a, { action: 'read', subject: 'invoices' })).toBe(true);
    expect(holdsPermission(a, { action: 'update', subject: 'invoices' })).toBe(false);
    expect(holdsPermission(a, { action: 'read', subject: 'workspace_invoices' })).toBe(false);
    for (const action of ['read', 'create', 'update', 'delete', 'manage'] as const)
      expect(holdsPermission(a, { action, subject: 'sessions' }), action).toBe(true);
  });

  it('manage is held only with every action of its subject', () => {
    expect(
      holdsPermission(
        ability([
          { action: 'read', subject: 'invoices' },
          { action: 'create', subject: 'invoices' },
          { action: 'update', subject: 'invoices' },
        ]),
        { action: 'manage', subject: 'invoices' },
      ),
    ).toBe(false);
    const all = ability(
      ['read', 'create', 'update', 'delete'].map((action) => ({ action: action as 'read', subject: 'invoices' as const })),
    );
    expect(holdsPermission(all, { action: 'manage', subject: 'invoices' })).toBe(true);
    // Subjects with only read and update: both make manage.
    expect(
      holdsPermission(
        ability([
          { action: 'read', subject: 'workspace_profile' },
          { action: 'update', subject: 'workspace_profile' },
        ]),
        { action: 'manage', subject: 'workspace_profile' },
      ),
    ).toBe(true);
  });

  it('"is owner" is covered by the full permission, never the other way round', () => {
    const own = ability([{ action: 'manage', subject: 'patient_files', ownOnly: true }]);
    expect(holdsPermission(own, { action: 'read', subject: 'patient_files', ownOnly: true })).toBe(true);
    expect(holdsPermission(own, { action: 'manage', subject: 'patient_files', ownOnly: true })).toBe(true);
    expect(holdsPermission(own, { action: 'read', subject: 'patient_files' })).toBe(false);
    expect(holdsPermission(own, { action: 'manage', subject: 'patient_files' })).toBe(false);
    const full = ability([{ action: 'read', subject: 'patient_files' }]);
    expect(holdsPermission(full, { action: 'read', subject: 'patient_files', ownOnly: true })).toBe(true);
    expect(holdsPermission(full, { action: 'update', subject: 'patient_files', ownOnly: true })).toBe(false);
  });

  it('several roles add up: "is owner" manage plus a full read covers both readings of read', () => {
    const a = ability([
      { action: 'manage', subject: 'invoices', ownOnly: true },
      { action: 'read', subject: 'invoices' },
    ]);
    expect(holdsPermission(a, { action: 'read', subject: 'invoices' })).toBe(true);
    expect(holdsPermission(a, { action: 'update', subject: 'invoices' })).toBe(false);
    expect(holdsPermission(a, { action: 'manage', subject: 'invoices' })).toBe(false);
    expect(holdsPermission(a, { action: 'manage', subject: 'invoices', ownOnly: true })).toBe(true);
  });

  it('lists what is not held, and names it in Spanish', () => {
    const reception = DEFAULT_ROLES.clinic.find((r) => r.name === 'Recepción')!;
    const therapist = DEFAULT_ROLES.clinic.find((r) => r.name === 'Terapeuta')!;
    const r = ability(reception.permissions);
    expect(permissionsNotHeld(r, reception.permissions)).toEqual([]);
    const missing = permissionsNotHeld(r, therapist.permissions);
    expect(missing.map((p) => p.subject)).toContain('patient_histories');
    expect(permissionsNotHeld(ability(therapist.permissions), reception.permissions).length).toBeGreaterThan(0);
    expect(permissionLabel({ action: 'read', subject: 'patient_histories', ownOnly: true })).toBe(
      'Ver · Historia clínica (solo sus pacientes)',
    );
    expect(permissionLabel({ action: 'manage', subject: 'invoices', ownOnly: true })).toBe('Todo · Facturas (solo sus registros)');
    expect(grantRefusal.notHeld([{ action: 'update', subject: 'roles' }])).toBe(
      'No puedes conceder permisos que tú no tienes: Editar · Roles.',
    );
  });

  it('an unknown subject is never held', () => {
    expect(holdsPermission(ability([], true), { action: 'read', subject: 'spaceships' } as unknown as Permission)).toBe(false);
  });
});
