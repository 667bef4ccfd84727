import { describe, expect, it } from 'vitest';
import { defineAbility, type Permission } from '@divan/core';
import { grantScope } from './permission-matrix';

const ability = (permissions: Permission[], isAdmin = false) => defineAbility({ userId: 'u', isAdmin, permissions });

describe('what the role editor lets one grant', () => {
  const manager = ability([
    { action: 'manage', subject: 'roles' },
    { action: 'read', subject: 'patient_files', ownOnly: true },
  ]);

  it('cells: what the editor holds in some form, or the role already had', () => {
    const scope = grantScope(manager, [{ action: 'read', subject: 'invoices' }]);
    expect(scope.cell('roles', 'delete')).toBe(true);
    expect(scope.cell('patient_files', 'read')).toBe(true);
    expect(scope.cell('patient_files', 'update')).toBe(false);
    expect(scope.cell('invoices', 'read')).toBe(true);
    expect(scope.cell('invoices', 'create')).toBe(false);
    expect(grantScope(ability([], true), []).cell('workspace_invoices', 'delete')).toBe(true);
  });

  it('missing: what a list grants beyond that, "is owner" counted', () => {
    const scope = grantScope(manager, [{ action: 'read', subject: 'invoices' }]);
    expect(
      scope.missing([
        { action: 'manage', subject: 'roles' },
        { action: 'read', subject: 'invoices' },
        { action: 'read', subject: 'patient_files', ownOnly: true },
      ]),
    ).toEqual([]);
    expect(
      scope.missing([
        { action: 'read', subject: 'patient_files' },
        { action: 'manage', subject: 'invoices' },
      ]),
    ).toEqual([
      { action: 'read', subject: 'patient_files' },
      { action: 'manage', subject: 'invoices' },
    ]);
  });
});
