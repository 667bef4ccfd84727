import type { QueryClient } from '@tanstack/react-query';

/** The signed-in user's workspaces (GET /workspaces). */
export const workspacesQueryKey = ['workspaces'] as const;

/**
 * Every query about one workspace's data starts with its id, so switching workspace never shows the
 * previous one's cache and invalidating a workspace is one call.
 */
export const workspaceKey = (workspaceId: string, ...rest: readonly unknown[]) => ['workspace', workspaceId, ...rest] as const;

/**
 * After a change to one area of a workspace (`'sessions'`, `'invoices'`…): every read of it refetches,
 * and a record's detail not on screen (`[…area, 'detail', id]`) is forgotten rather than kept stale, so
 * reopening it never shows — or starts a form from — what it was before the change.
 */
export function refreshWorkspaceArea(qc: QueryClient, workspaceId: string, area: string): Promise<void> {
  qc.removeQueries({ queryKey: workspaceKey(workspaceId, area, 'detail'), type: 'inactive' });
  return qc.invalidateQueries({ queryKey: workspaceKey(workspaceId, area) });
}
