import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Permission, Role, Workspace } from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey, workspacesQueryKey } from '@/lib/workspace-keys';
import { useWorkspacesStore } from '@/stores/workspaces-store';

export type RoleBody = { name: string; permissions: Permission[] };

export const rolesQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKey(workspaceId, 'roles'),
    queryFn: ({ signal }) => api<Role[]>(`/workspaces/${workspaceId}/roles`, { signal }),
  });

export const useRoles = (workspaceId: string, enabled: boolean) => useQuery({ ...rolesQueryOptions(workspaceId), enabled });

/** Role names show in the workspace (member dialog) and on member rows; permissions may be one's own. */
function useRolesMutation<V, T>(workspaceId: string, mutationFn: (vars: V) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: workspaceKey(workspaceId, 'roles') }),
        queryClient.invalidateQueries({ queryKey: workspaceKey(workspaceId, 'members') }),
        queryClient.invalidateQueries({ queryKey: workspacesQueryKey }),
      ]),
  });
}

export const useCreateRole = (workspaceId: string) =>
  useRolesMutation(workspaceId, (body: RoleBody) => api<Role>(`/workspaces/${workspaceId}/roles`, { method: 'POST', body }));

export const useUpdateRole = (workspaceId: string) =>
  useRolesMutation(workspaceId, ({ roleId, body }: { roleId: string; body: RoleBody }) =>
    api<Role>(`/workspaces/${workspaceId}/roles/${roleId}`, { method: 'PUT', body }),
  );

export const useDeleteRole = (workspaceId: string) =>
  useRolesMutation(workspaceId, (roleId: string) => api<void>(`/workspaces/${workspaceId}/roles/${roleId}`, { method: 'DELETE' }));

/** Owner only, once and for good (spec §4/§5): the roles stay as they are and can no longer change. */
export function useDisableSelfManagedRoles(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirmation: string) =>
      api<Workspace>(`/workspaces/${workspaceId}/roles-manager/disable`, { method: 'POST', body: { confirmation } }),
    onSuccess: (ws) => {
      useWorkspacesStore.getState().upsert(ws);
      return queryClient.invalidateQueries({ queryKey: workspacesQueryKey });
    },
  });
}
