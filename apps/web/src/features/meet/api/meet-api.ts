import type { MeetJoin } from '@divan/core';
import { api, isApiError } from '@/lib/api-client';
import { http } from '@/lib/http';

/** The patient's way in: the link's token, no account. */
export const joinAsPatient = (sessionId: string, token: string) =>
  http<MeetJoin>(`/meet/${encodeURIComponent(sessionId)}/join`, { method: 'POST', body: { t: token } });

const joinIn = (workspaceId: string, sessionId: string) =>
  api<MeetJoin>(`/workspaces/${encodeURIComponent(workspaceId)}/sessions/${encodeURIComponent(sessionId)}/meet`, { method: 'POST' });

/**
 * The therapist's way in. The link (`/meet/:id`) names no workspace: the current one first, then the
 * member's others, so a link from another workspace's calendar or email still opens.
 */
export async function joinAsMember(sessionId: string, workspaceIds: string[]): Promise<MeetJoin & { workspaceId: string }> {
  let notFound: unknown;
  for (const workspaceId of workspaceIds) {
    try {
      return { ...(await joinIn(workspaceId, sessionId)), workspaceId };
    } catch (error) {
      if (!isApiError(error) || (error.code !== 'therapy_session_not_found' && error.code !== 'workspace_not_found')) throw error;
      notFound ??= error;
    }
  }
  throw notFound;
}
