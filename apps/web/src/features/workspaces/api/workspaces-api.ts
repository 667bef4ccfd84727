import { useEffect } from 'react';
import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import type { BillingInfo, InvoiceSeriesCounters, Workspace, WorkspaceTemplate } from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey, workspacesQueryKey } from '@/lib/workspace-keys';
import { useAuthStore } from '@/stores/auth-store';
import { useWorkspacesStore } from '@/stores/workspaces-store';

export type AuditEvent = {
  id: string;
  action: string;
  actor: { id: string | null; name: string };
  target: string | null;
  details: Record<string, unknown>;
  createdAt: string;
};

export type Invitation = {
  id: string;
  workspaceId: string;
  workspaceName: string;
  email: string;
  invitedBy: string;
  status: 'pending' | 'accepted' | 'canceled';
};

export const workspacesQueryOptions = () =>
  queryOptions({
    queryKey: workspacesQueryKey,
    queryFn: ({ signal }) => api<Workspace[]>('/workspaces', { signal }),
    // Paint the switcher at once from the persisted list, then refresh it.
    initialData: () => {
      const { workspaces, userId } = useWorkspacesStore.getState();
      return workspaces.length && userId === useAuthStore.getState().userId ? workspaces : undefined;
    },
    initialDataUpdatedAt: 0,
  });

/**
 * Feeds the persisted store from GET /workspaces (mounted once, in the shell and the workspace flows).
 * Refetches on focus, so a member whose roles changed sees it without reloading.
 */
export function useWorkspacesSync() {
  const query = useQuery(workspacesQueryOptions());
  const userId = useAuthStore((s) => s.userId);
  useEffect(() => {
    // dataUpdatedAt is 0 for the persisted copy (initialData): only a real answer updates the store.
    if (userId && query.data && query.dataUpdatedAt > 0) useWorkspacesStore.getState().setWorkspaces(userId, query.data);
  }, [userId, query.data, query.dataUpdatedAt]);
  return query;
}

/** One workspace came back from a mutation: the store and the cached list learn it together. */
export function rememberWorkspace(queryClient: QueryClient, workspace: Workspace): Workspace {
  useWorkspacesStore.getState().upsert(workspace);
  queryClient.setQueryData<Workspace[]>(workspacesQueryKey, (list) =>
    list
      ? list.some((w) => w.id === workspace.id)
        ? list.map((w) => (w.id === workspace.id ? workspace : w))
        : [...list, workspace]
      : list,
  );
  return workspace;
}

function useWorkspaceMutation<V>(mutationFn: (vars: V) => Promise<Workspace>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: (ws) => rememberWorkspace(queryClient, ws) });
}

export const useCreateWorkspace = () =>
  useWorkspaceMutation((body: { name: string; template: WorkspaceTemplate }) => api<Workspace>('/workspaces', { method: 'POST', body }));

export const useRenameWorkspace = (workspaceId: string) =>
  useWorkspaceMutation((name: string) => api<Workspace>(`/workspaces/${workspaceId}`, { method: 'PATCH', body: { name } }));

export const useUploadWorkspaceLogo = (workspaceId: string) =>
  useWorkspaceMutation((file: File) => {
    const body = new FormData();
    body.append('file', file);
    return api<Workspace>(`/workspaces/${workspaceId}/logo`, { method: 'PUT', body });
  });

export const useDeleteWorkspaceLogo = (workspaceId: string) =>
  useWorkspaceMutation(() => api<Workspace>(`/workspaces/${workspaceId}/logo`, { method: 'DELETE' }));

export const billingInfoQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKey(workspaceId, 'billing-info'),
    queryFn: ({ signal }) => api<BillingInfo>(`/workspaces/${workspaceId}/billing-info`, { signal }),
  });

export const useBillingInfo = (workspaceId: string, enabled: boolean) => useQuery({ ...billingInfoQueryOptions(workspaceId), enabled });

/** This year's counters of the workspace's series: its billing settings say the next number from them (read again on each visit). */
export const useWorkspaceInvoiceSeries = (workspaceId: string, enabled: boolean) =>
  useQuery({
    queryKey: workspaceKey(workspaceId, 'invoice-series'),
    queryFn: ({ signal }) => api<InvoiceSeriesCounters>(`/workspaces/${workspaceId}/invoice-series`, { signal }),
    enabled,
    staleTime: 0,
  });

export function useUpdateBillingInfo(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BillingInfo) => api<BillingInfo>(`/workspaces/${workspaceId}/billing-info`, { method: 'PUT', body }),
    onSuccess: (info) => {
      queryClient.setQueryData(billingInfoQueryOptions(workspaceId).queryKey, info);
      void queryClient.invalidateQueries({ queryKey: workspacesQueryKey });
    },
  });
}

export const AUDIT_PAGE_SIZE = 50;

export const auditEventsQueryOptions = (workspaceId: string) =>
  infiniteQueryOptions({
    queryKey: workspaceKey(workspaceId, 'audit-events'),
    queryFn: ({ signal, pageParam }) =>
      api<AuditEvent[]>(`/workspaces/${workspaceId}/audit-events`, { signal, query: { limit: AUDIT_PAGE_SIZE, before: pageParam } }),
    initialPageParam: undefined as string | undefined,
    // The server pages by time: the next page is everything before the oldest event shown.
    getNextPageParam: (last) => (last.length === AUDIT_PAGE_SIZE ? last[last.length - 1]?.createdAt : undefined),
  });

export const useAuditEvents = (workspaceId: string, enabled: boolean) =>
  useInfiniteQuery({ ...auditEventsQueryOptions(workspaceId), enabled });

export const useInvitation = (invitationId: string) =>
  useQuery({
    queryKey: ['invitation', invitationId],
    queryFn: ({ signal }) => api<Invitation>(`/invitations/${invitationId}`, { signal }),
    staleTime: 0,
  });

export const useAcceptInvitation = () =>
  useWorkspaceMutation((invitationId: string) => api<Workspace>(`/invitations/${invitationId}/accept`, { method: 'POST' }));

/** Ends this session on the server before switching account; a failure still lets the user leave. */
export const signOutOnServer = () => api<void>('/realms/therapists/sessions', { method: 'DELETE', auth: 'refresh' }).catch(() => undefined);
