import { useCallback, useEffect, useState } from 'react';
import { Link, Navigate, useLocation, useParams, useSearchParams } from 'react-router';
import type { MeetJoin } from '@divan/core';
import { Button } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/http';
import { usePageTitle } from '@/lib/use-page-title';
import { useAuthStore } from '@/stores/auth-store';
import { isRealWorkspace, useWorkspacesStore } from '@/stores/workspaces-store';
import { joinAsMember, joinAsPatient } from './api/meet-api';
import { Lobby } from './components/lobby';
import { MeetMessage, titleFor } from './components/meet-message';
import { RoomView } from './components/room-view';
import { useLocalMedia } from './hooks/use-local-media';
import { useMeetRoom } from './hooks/use-meet-room';

type Load = () => Promise<MeetJoin>;

/**
 * `/meet/:sessionId`: the video room of an online session. With `?t=` it is the patient's link (no
 * account); without, the signed-in member who may read the session enters as its therapist.
 */
export function MeetRoute() {
  usePageTitle('Videollamada');
  const { sessionId = '' } = useParams();
  const [params] = useSearchParams();
  const token = params.get('t');
  const load = useCallback<Load>(() => joinAsPatient(sessionId, token ?? ''), [sessionId, token]);
  if (token) return <MeetScreen load={load} />;
  return <MemberMeet sessionId={sessionId} />;
}

function MemberMeet({ sessionId }: { sessionId: string }) {
  const hydrated = useAuthStore((s) => s.hydrated);
  const loggedIn = useAuthStore((s) => s.loggedIn);
  const currentId = useWorkspacesStore((s) => s.currentId);
  const workspaces = useWorkspacesStore((s) => s.workspaces);
  const location = useLocation();
  const load = useCallback<Load>(() => {
    const ids = [currentId, ...workspaces.map((w) => w.id)].filter((id, i, all) => isRealWorkspace(id) && all.indexOf(id) === i);
    return joinAsMember(sessionId, ids);
    // The workspaces as they were on entering: a refresh of the list does not reload the room.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sessionId]);
  if (!hydrated) return null;
  if (!loggedIn) return <Navigate to={`/sign-in?redirect=${encodeURIComponent(location.pathname)}`} replace />;
  return <MeetScreen load={load} therapist />;
}

type Failure = { code: string; message: string };
const failureOf = (error: unknown): Failure =>
  isApiError(error) ? { code: error.code, message: error.message } : { code: 'unexpected_error', message: 'Error inesperado.' };

/** Asks to enter; then the lobby, the room, and what comes after. A new attempt remounts everything (camera included). */
function MeetScreen({ load, therapist }: { load: Load; therapist?: boolean }) {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<{ join?: MeetJoin; failure?: Failure }>({});
  useEffect(() => {
    let live = true;
    setState({});
    load().then(
      (join) => live && setState({ join }),
      (error: unknown) => live && setState({ failure: failureOf(error) }),
    );
    return () => {
      live = false;
    };
  }, [load, attempt]);
  const again = () => setAttempt((n) => n + 1);

  if (state.failure)
    return (
      <MeetMessage
        title={titleFor(state.failure.code)}
        actions={
          <>
            {['network_error', 'meet_not_open', 'unexpected_error', 'too_many_requests'].includes(state.failure.code) ? (
              <Button onClick={again}>Reintentar</Button>
            ) : null}
            {therapist ? (
              <Button asChild variant="outline">
                <Link to="/calendar">Ir al calendario</Link>
              </Button>
            ) : null}
          </>
        }
      >
        {state.failure.message}
      </MeetMessage>
    );
  if (!state.join) return <PageSpinner />;
  return <MeetFlow key={attempt} join={state.join} load={load} therapist={therapist} onAgain={again} />;
}

function MeetFlow({ join, load, therapist, onAgain }: { join: MeetJoin; load: Load; therapist?: boolean; onAgain: () => void }) {
  const media = useLocalMedia();
  const [entered, setEntered] = useState(false);
  if (!entered) return <Lobby join={join} media={media} onEnter={() => setEntered(true)} />;
  return <InRoom join={join} media={media} load={load} therapist={therapist} onAgain={onAgain} />;
}

function InRoom({
  join,
  media,
  load,
  therapist,
  onAgain,
}: {
  join: MeetJoin;
  media: ReturnType<typeof useLocalMedia>;
  load: Load;
  therapist?: boolean;
  onAgain: () => void;
}) {
  const r = useMeetRoom(join, media, load);
  if (!r.end) return <RoomView join={join} media={media} r={r} />;
  const end = r.end;
  const left = end.kind === 'left';
  return (
    <MeetMessage
      tone={left ? 'calm' : 'error'}
      title={end.kind === 'left' ? 'Has salido de la videollamada' : titleFor(end.code)}
      actions={
        <>
          {end.kind === 'left' || end.code === 'meet_ticket_invalid' ? <Button onClick={onAgain}>Volver a entrar</Button> : null}
          {therapist ? (
            <Button asChild variant="outline">
              <Link to={`/calendar?session=${join.session.id}`}>Ir al calendario</Link>
            </Button>
          ) : null}
        </>
      }
    >
      {end.kind === 'left'
        ? therapist
          ? 'Puedes volver a entrar mientras la sesión siga abierta.'
          : 'Gracias. Si se ha cortado sin querer, vuelve a entrar con el mismo enlace.'
        : end.message}
    </MeetMessage>
  );
}

export { MeetRoute as Component };
