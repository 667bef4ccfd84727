import type { ChangePasswordBody } from '@divan/core';
import { api } from '@/lib/api-client';
import { endLocalSession } from '@/lib/auth-session';
import { useAction } from '@/lib/use-action';

// Calls made with the refresh token, from the signed-in shell only.
const realm = '/realms/therapists';

export const useChangePassword = () =>
  useAction((body: ChangePasswordBody) => api<void>(`${realm}/password`, { method: 'POST', body, auth: 'refresh' }));

/** Signing out always succeeds locally, even if the server can't be reached: the user asked to leave. */
export const useSignOut = () =>
  useAction(async () => {
    await api<void>(`${realm}/sessions`, { method: 'DELETE', auth: 'refresh' }).catch(() => undefined);
    endLocalSession('user');
  });
