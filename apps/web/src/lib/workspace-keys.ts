/** The signed-in user's workspaces (GET /workspaces). */
export const workspacesQueryKey = ['workspaces'] as const;

/**
 * Every query about one workspace's data starts with its id, so switching workspace never shows the
 * previous one's cache and invalidating a workspace is one call.
 */
export const workspaceKey = (workspaceId: string, ...rest: readonly unknown[]) => ['workspace', workspaceId, ...rest] as const;
