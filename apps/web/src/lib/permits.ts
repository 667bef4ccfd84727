import { useMemo } from 'react';
import { permitsOf, type AbilityInput, type Action, type Permission, type Permits, type Subject } from '@divan/core';
import { useAuthStore } from '@/stores/auth-store';
import { useCurrentWorkspace } from '@/stores/workspaces-store';

/** Who asks and what the server granted them in the current workspace (kept while they do not change). */
export function useAbilityInput(): AbilityInput {
  const workspace = useCurrentWorkspace();
  const userId = useAuthStore((s) => s.userId) ?? '';
  // The response schema types `subject` as string; its values are the core's subjects.
  return useMemo(
    () => ({ userId, isAdmin: workspace.me.isAdmin, permissions: workspace.me.permissions as Permission[] }),
    [userId, workspace.me],
  );
}

/**
 * What the member may do in the current workspace, read off the permissions the server sent with it
 * (core's `permitsOf`): the questions the shell, the sidebar and the dashboard ask, without CASL, which
 * those screens never download. `useAbility` (lib/ability.ts) builds the full ability where a screen
 * needs more (field maps, scopes). The server is the guard; the web only avoids offering what would be refused.
 */
export function usePermits(): Permits {
  const input = useAbilityInput();
  return useMemo(() => permitsOf(input), [input]);
}

/** `useCan('update', 'members')`: whether the member may do it on some record. */
export const useCan = (action: Action, subject: Subject): boolean => usePermits().can(action, subject);
