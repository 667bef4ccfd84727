import { scopeFor } from '@divan/core';
import { useAbility } from '@/lib/ability';
import { useAuthStore } from '@/stores/auth-store';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';

/** The workspace the booking setup works in, and what the member may do with services and blocked days. */
export function useBookingScope() {
  const workspace = useCurrentWorkspace();
  const ability = useAbility();
  const userId = useAuthStore((s) => s.userId) ?? '';
  return {
    wid: workspace.id,
    userId,
    ready: isRealWorkspace(workspace.id),
    canRead: ability.can('read', 'public_services'),
    /** Every therapist's services, not only one's own: the list names the therapist. */
    readsAll: scopeFor(ability, 'read', 'public_services', userId).kind === 'all',
    canCreate: ability.can('create', 'public_services'),
    canUpdate: ability.can('update', 'public_services'),
    canDelete: ability.can('delete', 'public_services'),
    canReadBlocked: ability.can('read', 'availability_restrictions'),
    canBlock: ability.can('create', 'availability_restrictions'),
    canUnblock: ability.can('delete', 'availability_restrictions'),
    /** Blocks any therapist's days (Recepción), not only one's own. */
    blocksAll: scopeFor(ability, 'create', 'availability_restrictions', userId).kind === 'all',
  };
}
