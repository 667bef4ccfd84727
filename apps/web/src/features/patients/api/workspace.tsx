import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { AppAbility, Workspace } from '@divan/core';
import { api } from '@/lib/api-client';
import { useAbility } from '@/lib/ability';
import { workspacesQueryKey } from '@/lib/workspace-keys';
import { useAuthStore } from '@/stores/auth-store';
import { isRealWorkspace, useCurrentWorkspace, useWorkspacesStore } from '@/stores/workspaces-store';

/** The workspace the patients screens work in, and what the signed-in member may do there. */
export type WorkspaceScope = { workspace: Workspace; ability: AppAbility; userId: string };

/**
 * The current workspace from the workspaces store (the switcher's choice). Should the store still
 * be empty (first visit, list not loaded by the shell yet), the list is loaded here once, through
 * the same query the workspaces feature uses, and handed to the store.
 */
export function useWorkspaceSource() {
  const workspace = useCurrentWorkspace();
  const ability = useAbility();
  const userId = useAuthStore((s) => s.userId);
  const ready = isRealWorkspace(workspace.id);
  const list = useQuery({
    queryKey: workspacesQueryKey,
    queryFn: ({ signal }) => api<Workspace[]>('/workspaces', { signal }),
    enabled: !ready,
  });
  useEffect(() => {
    if (!ready && userId && list.data) useWorkspacesStore.getState().setWorkspaces(userId, list.data);
  }, [ready, userId, list.data]);
  return { workspace: ready ? workspace : null, ability, userId: userId ?? '', error: list.error, refetch: list.refetch };
}

const ScopeContext = createContext<WorkspaceScope | null>(null);

export function WorkspaceScopeProvider({ value, children }: { value: WorkspaceScope; children: ReactNode }) {
  return <ScopeContext.Provider value={value}>{children}</ScopeContext.Provider>;
}

export function useWorkspaceScope(): WorkspaceScope {
  const scope = useContext(ScopeContext);
  if (!scope) throw new Error('useWorkspaceScope outside WorkspaceScopeProvider');
  return scope;
}
