import { describe, expect, it } from 'vitest';
import { ADMIN_ROLE_NAME, DEFAULT_ROLES, defineAbility, type Permission } from '@divan/core';
import type { Membership } from '../../platform/auth/access';
import { chatScope, readsFile } from './chat-access';

const me = 'u-me';
const member = (permissions: Permission[], isAdmin = false): Membership => ({
  workspaceId: 'w',
  memberId: 'm',
  isOwner: false,
  isAdmin,
  ability: defineAbility({ userId: me, isAdmin, permissions }),
});
const role = (template: 'team' | 'clinic', name: string) => member(DEFAULT_ROLES[template].find((r) => r.name === name)!.permissions);

describe('who reads a patient chat, per default role', () => {
  it(`${ADMIN_ROLE_NAME}: every file`, () => {
    const admin = member([], true);
    expect(chatScope(admin, me)).toEqual({ kind: 'all' });
    expect(readsFile(admin, me, 'someone-else')).toBe(true);
  });

  it('Terapeuta of a team: every file', () => {
    const m = role('team', 'Terapeuta');
    expect(chatScope(m, me)).toEqual({ kind: 'all' });
    expect(readsFile(m, me, null)).toBe(true);
  });

  it('Terapeuta of a clinic: only the files assigned to them', () => {
    const m = role('clinic', 'Terapeuta');
    expect(chatScope(m, me)).toEqual({ kind: 'own', ownerId: me });
    expect(readsFile(m, me, me)).toBe(true);
    expect(readsFile(m, me, 'someone-else')).toBe(false);
    expect(readsFile(m, me, null)).toBe(false);
  });

  it('Recepción: no chat (clinical), though it reads the files', () => {
    const m = role('clinic', 'Recepción');
    expect(chatScope(m, me)).toEqual({ kind: 'none' });
    expect(readsFile(m, me, me)).toBe(false);
  });

  it('a role with the histories but not the files reads nothing', () => {
    const m = member([{ action: 'read', subject: 'patient_histories' }]);
    expect(chatScope(m, me)).toEqual({ kind: 'none' });
  });
});
