import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationSettings, NotificationSettingsBody } from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey } from '@/lib/workspace-keys';

/** The member's own settings in the workspace (the calendar's form reads the same key for its defaults). */
export const notificationSettingsKey = (wid: string) => workspaceKey(wid, 'notification-settings');
const path = (wid: string) => `/workspaces/${wid}/notification-settings`;

export const useNotificationSettings = (wid: string) =>
  useQuery({
    queryKey: notificationSettingsKey(wid),
    queryFn: ({ signal }) => api<NotificationSettings>(path(wid), { signal }),
    enabled: !!wid,
  });

export function useSaveNotificationSettings(wid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationSettingsBody) => api<NotificationSettings>(path(wid), { method: 'PUT', body }),
    onSuccess: (saved) => qc.setQueryData(notificationSettingsKey(wid), saved),
  });
}
