import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { socketEventQuery } from '@divan/core';
import { toast } from '@/lib/toast';
import { onPatientEvent } from '@/features/patients/api/patient-events';
import { meQueryKey } from '@/features/profile/api/profile-api';
import { refreshWorkspaceArea, workspacesQueryKey } from '@/lib/workspace-keys';
import { endLocalSession, getAccessToken, refreshSession } from '@/lib/auth-session';
import { RealtimeClient, realtimeUrl } from '@/lib/realtime';
import { realtimeBus } from '@/lib/realtime-bus';
import { useAuthStore } from '@/stores/auth-store';

/** Opens the notifications socket while signed in and routes its events to the query cache. */
export function useRealtime(): void {
  const loggedIn = useAuthStore((s) => s.loggedIn);
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!loggedIn) return;
    const client = new RealtimeClient({
      url: realtimeUrl(window.location),
      getAccessToken,
      refreshToken: refreshSession,
      onSessionLost: () => endLocalSession('expired'),
      onMaxSessions: () => {
        useAuthStore.getState().setTooManySessions(true);
        toast.error('Has alcanzado el máximo de sesiones abiertas', {
          description: 'Cierra Diván en otras pestañas o dispositivos y recarga para recibir avisos en tiempo real.',
          duration: Infinity,
          id: 'max-sessions',
        });
      },
      onStatus: (status) => realtimeBus.publishStatus(status),
      onEvent: (frame) => {
        // Features listen here (the chat's messages, counters and typing).
        realtimeBus.publish(frame);
        if (frame.event === 'profile-updated') void queryClient.invalidateQueries({ queryKey: meQueryKey });
        // Roles changed or membership ended: permissions on screen follow at once.
        if (frame.event === 'workspace-updated') void queryClient.invalidateQueries({ queryKey: workspacesQueryKey });
        // Another member changed something this screen may show: refetch it (the API decides what it may read).
        if (frame.event === 'workspace-event') {
          const { name, workspaceId, patientId } = frame.data as { name: string; workspaceId: string; patientId?: string | null };
          // What each bridged event refreshes is core's list (SOCKET_EVENTS), the one the server sends by.
          const query = socketEventQuery(name);
          // A patient's: the patients' queries refetch, a patient gone is forgotten (patient-events.ts).
          if (query === 'patients') onPatientEvent(queryClient, workspaceId, name, patientId);
          else if (query) void refreshWorkspaceArea(queryClient, workspaceId, query);
        }
      },
    });
    realtimeBus.setSender((event, data) => client.emit(event, data));
    client.start();
    return () => {
      realtimeBus.setSender(null);
      client.stop();
    };
  }, [loggedIn, queryClient]);
}
