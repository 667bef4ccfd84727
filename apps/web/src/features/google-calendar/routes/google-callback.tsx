import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert } from 'lucide-react';
import type { GoogleCalendarStatus } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { messageOf } from '@/lib/error-message';
import { toast } from '@/lib/toast';
import { usePageTitle } from '@/lib/use-page-title';
import { isRealWorkspace, useCurrentWorkspace, useWorkspacesStore } from '@/stores/workspaces-store';
import { connectGoogleCalendar, googleCalendarKeys } from '../api/google-calendar-api';
import { takeConnectingWorkspace } from '../utils/leave-for';

/**
 * One post per state: the state is single-use at the server, and StrictMode (or a remount) must not send it
 * twice, so every mount of the same answer shares the first one's request.
 */
const posted = new Map<string, Promise<GoogleCalendarStatus>>();

/** Google's own refusals on the redirect (`?error=`). */
function googleErrorText(error: string): string {
  if (error === 'access_denied') return 'Has cancelado el permiso en Google, así que Google Calendar no se ha conectado.';
  return 'Google no ha podido completar la conexión. Vuelve a intentarlo dentro de un momento.';
}

/**
 * `/settings/integrations/google/callback`: where Google sends the browser back after the consent page. It hands
 * the code and state to the server once, then goes back to Ajustes › Integraciones with «Google Calendar conectado».
 */
export function GoogleCalendarCallbackRoute() {
  usePageTitle('Conectando Google Calendar');
  const workspace = useCurrentWorkspace();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const code = params.get('code');
  const state = params.get('state');
  const googleError = params.get('error');

  useEffect(() => {
    if (googleError) return setError(googleErrorText(googleError));
    if (!code || !state) return setError('Falta la respuesta de Google. Vuelve a empezar desde Ajustes › Integraciones.');
    // A fresh page load knows its workspace a moment later: the state belongs to it, so wait for it.
    if (!isRealWorkspace(workspace.id)) return;
    // Started in another workspace of this person (switched meanwhile): that one, where the state belongs.
    const started = posted.has(state) ? null : takeConnectingWorkspace();
    if (started && started !== workspace.id && useWorkspacesStore.getState().workspaces.some((w) => w.id === started)) {
      useWorkspacesStore.getState().select(started);
      return;
    }
    let live = true;
    let request = posted.get(state);
    if (!request) {
      request = connectGoogleCalendar(workspace.id, { code, state });
      posted.set(state, request);
    }
    request.then(
      (status) => {
        qc.setQueryData(googleCalendarKeys.status(workspace.id), status);
        if (!live) return;
        toast.success('Google Calendar conectado');
        void navigate('/settings/integrations', { replace: true });
      },
      (err: unknown) => {
        if (live) setError(messageOf(err));
      },
    );
    return () => {
      live = false;
    };
  }, [code, state, googleError, workspace.id, qc, navigate]);

  if (error)
    return (
      <Card>
        <CardContent className="grid gap-4">
          <div className="flex items-start gap-3">
            <CircleAlert className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden />
            <div className="grid gap-1">
              <h2 className="text-base font-semibold leading-tight">No se ha conectado Google Calendar</h2>
              <p role="alert" className="text-sm leading-relaxed text-muted-foreground">
                {error}
              </p>
            </div>
          </div>
          <div>
            <Button asChild variant="outline">
              <Link to="/settings/integrations" replace>
                Volver a Integraciones
              </Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    );

  return (
    <Card>
      <CardContent className="flex items-center gap-3 text-sm">
        <Spinner label="Conectando Google Calendar" />
        <span>Conectando con Google Calendar…</span>
      </CardContent>
    </Card>
  );
}

export { GoogleCalendarCallbackRoute as Component };
