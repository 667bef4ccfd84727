import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SecondFactorPolicy } from '@divan/core';
import { api } from '@/lib/api-client';

/** «Segundo factor obligatorio» of a workspace (issue 32): its owner's view and switch. */
const key = (workspaceId: string) => ['workspaces', workspaceId, 'second-factor-policy'] as const;
const path = (workspaceId: string) => `/workspaces/${workspaceId}/second-factor-policy`;

export const useSecondFactorPolicy = (workspaceId: string, enabled: boolean) =>
  useQuery({ queryKey: key(workspaceId), queryFn: ({ signal }) => api<SecondFactorPolicy>(path(workspaceId), { signal }), enabled });

export function useSetSecondFactorPolicy(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (required: boolean) => api<SecondFactorPolicy>(path(workspaceId), { method: 'PUT', body: { required } }),
    onSuccess: (policy) => qc.setQueryData(key(workspaceId), policy),
  });
}
