import { describe, expect, it } from 'vitest';
import { checkPermissions, DEFAULT_ROLES, type Permission } from '@divan/core';
import { emptyMatrix, groupedSubjects, toggleAction, toggleAll, toMatrix, toPermissions } from './permission-matrix';

const sortKey = (p: Permission) => `${p.subject}:${p.action}:${p.ownOnly ? 1 : 0}`;
const sorted = (ps: Permission[]) =>
  [...ps].map((p) => ({ ...p, ownOnly: p.ownOnly || undefined })).sort((a, b) => sortKey(a).localeCompare(sortKey(b)));

describe('permission matrix', () => {
  it('round-trips every default role unchanged and valid', () => {
    for (const role of Object.values(DEFAULT_ROLES).flat()) {
      const back = toPermissions(toMatrix(role.permissions));
      expect(checkPermissions(back)).toBeNull();
      expect(sorted(back)).toEqual(sorted(role.permissions));
    }
  });

  it('turns a full row into one manage permission, never mixed with single actions', () => {
    let m = emptyMatrix();
    m = { ...m, members: toggleAll(m.members, 'members', true) };
    m = { ...m, workspace_billing: toggleAction(m.workspace_billing, 'workspace_billing', 'read', true) };
    expect(toPermissions(m)).toEqual([
      { action: 'manage', subject: 'members' },
      { action: 'read', subject: 'workspace_billing' },
    ]);
  });

  it('ticks "Ver" with any other action and clears the row without it', () => {
    const row = toggleAction({ actions: [], ownOnly: false }, 'patient_files', 'update', true);
    expect(row.actions).toEqual(['read', 'update']);
    expect(toggleAction(row, 'patient_files', 'read', false).actions).toEqual([]);
  });

  it('ignores actions a subject does not have', () => {
    const row = toggleAction({ actions: [], ownOnly: false }, 'workspace_profile', 'delete', true);
    expect(row.actions).toEqual([]);
  });

  it('keeps "only their own" only where the subject has an owner', () => {
    let m = emptyMatrix();
    m = { ...m, sessions: { actions: ['read'], ownOnly: true }, members: { actions: ['read'], ownOnly: true } };
    expect(toPermissions(m)).toEqual([
      { action: 'read', subject: 'members' },
      { action: 'read', subject: 'sessions', ownOnly: true },
    ]);
  });

  it('groups subjects with the workspace ones first', () => {
    expect(groupedSubjects()[0]).toEqual({
      group: 'Espacio de trabajo',
      subjects: ['workspace_profile', 'members', 'roles', 'workspace_billing'],
    });
  });
});
