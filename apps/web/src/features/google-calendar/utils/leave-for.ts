/** Sends the browser to another site (Google's consent page); its own module so tests can stand in for it. */
export const leaveFor = (url: string) => window.location.assign(url);

const KEY = 'divan.google-calendar.workspace';

/** The workspace a connection was started in: the state Google brings back belongs to it (this tab only). */
export function rememberConnectingWorkspace(workspaceId: string): void {
  try {
    sessionStorage.setItem(KEY, workspaceId);
  } catch {
    // Storage refused (private mode): the callback uses the current workspace.
  }
}

export function takeConnectingWorkspace(): string | null {
  try {
    const id = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return id;
  } catch {
    return null;
  }
}
