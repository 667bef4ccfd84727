import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Member } from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey, workspacesQueryKey } from '@/lib/workspace-keys';

export type Commission = { type: 'fixed' | 'percentage'; value: number };
export type PaymentsReceiver = 'therapist' | 'workspace';
export type InviteBody = { email: string; roleIds: string[]; commission?: Commission; paymentsReceiver: PaymentsReceiver };
export type UpdateMemberBody = { roleIds: string[]; commission: Commission | null; paymentsReceiver: PaymentsReceiver };

export const membersQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKey(workspaceId, 'members'),
    queryFn: ({ signal }) => api<Member[]>(`/workspaces/${workspaceId}/members`, { signal }),
  });

export const useMembers = (workspaceId: string, enabled: boolean) => useQuery({ ...membersQueryOptions(workspaceId), enabled });

/** Seats change the roles' counts, and a change to one's own roles changes one's permissions. */
function useMembersMutation<V, T>(workspaceId: string, mutationFn: (vars: V) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: workspaceKey(workspaceId, 'members') }),
        queryClient.invalidateQueries({ queryKey: workspaceKey(workspaceId, 'roles') }),
        queryClient.invalidateQueries({ queryKey: workspacesQueryKey }),
      ]),
  });
}

export const useInviteMember = (workspaceId: string) =>
  useMembersMutation(workspaceId, (body: InviteBody) =>
    api<{ id: string }>(`/workspaces/${workspaceId}/invitations`, { method: 'POST', body }),
  );

export const useUpdateMember = (workspaceId: string) =>
  useMembersMutation(workspaceId, ({ memberId, body }: { memberId: string; body: UpdateMemberBody }) =>
    api<Member>(`/workspaces/${workspaceId}/members/${memberId}`, { method: 'PATCH', body }),
  );

export const useCancelInvitation = (workspaceId: string) =>
  useMembersMutation(workspaceId, (invitationId: string) =>
    api<void>(`/workspaces/${workspaceId}/invitations/${invitationId}`, { method: 'DELETE' }),
  );

export const useRemoveMember = (workspaceId: string) =>
  useMembersMutation(workspaceId, (memberId: string) => api<void>(`/workspaces/${workspaceId}/members/${memberId}`, { method: 'DELETE' }));
