import { useMemo } from 'react';
import { defineAbility, type AppAbility, type Permission } from '@divan/core';
import { useAuthStore } from '@/stores/auth-store';
import { useCurrentWorkspace } from '@/stores/workspaces-store';

/**
 * What the member may do in the current workspace, from the permissions the server sent with it.
 * The server is the guard; the web only avoids offering what would be refused.
 */
export function useAbility(): AppAbility {
  const workspace = useCurrentWorkspace();
  const userId = useAuthStore((s) => s.userId) ?? '';
  return useMemo(
    // The response schema types `subject` as string; its values are the core's subjects.
    () => defineAbility({ userId, isAdmin: workspace.me.isAdmin, permissions: workspace.me.permissions as Permission[] }),
    [userId, workspace.me],
  );
}
