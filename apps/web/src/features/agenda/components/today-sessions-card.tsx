import { useId, useMemo } from 'react';
import { Link } from 'react-router';
import { CalendarDays, Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ListStates } from '@/components/ui/list-states';
import { useDaySessions } from '../api/agenda-api';
import { links, todayRange } from '../utils/session-labels';
import { SessionRow } from './session-row';

type Props = { workspaceId: string; userId: string; canCreate: boolean; canWriteNotes: boolean };

/** "Hoy": today's sessions the member may read, by time, with what is left to do for each. */
export function TodaySessionsCard({ workspaceId: wid, userId, canCreate, canWriteNotes }: Props) {
  const range = useMemo(() => todayRange(), []);
  const sessions = useDaySessions(wid, range);
  const ids = useId();
  const items = sessions.data ?? [];
  const live = items.filter((s) => s.status !== 'canceled');
  const pendingNotes = items.filter((s) => s.noteMissing).length;

  return (
    <Card role="region" aria-labelledby={`${ids}-title`}>
      <CardHeader className="flex flex-wrap items-center justify-between gap-2">
        <CardTitle id={`${ids}-title`} className="flex items-center gap-2">
          <CalendarDays className="size-4 text-primary" aria-hidden /> Sesiones de hoy
        </CardTitle>
        <span className="flex items-center gap-2 text-[0.8125rem] text-muted-foreground">
          {sessions.data ? (live.length === 1 ? '1 sesión' : `${live.length} sesiones`) : null}
          {pendingNotes ? ` · ${pendingNotes === 1 ? '1 nota pendiente' : `${pendingNotes} notas pendientes`}` : null}
        </span>
      </CardHeader>
      <CardContent className="grid gap-3">
        <ListStates
          query={sessions}
          failed="No se pudieron cargar las sesiones de hoy."
          loading="Cargando sesiones…"
          empty={items.length === 0 ? 'No hay sesiones hoy.' : null}
        >
          <ol className="divide-y" aria-label="Sesiones de hoy">
            {items.map((s) => (
              <SessionRow
                key={s.id}
                workspaceId={wid}
                session={s}
                show="patient"
                showTherapist={s.therapist.id !== userId}
                canWriteNotes={canWriteNotes}
              />
            ))}
          </ol>
        </ListStates>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline" size="sm">
            <Link to="/calendar">Abrir el calendario</Link>
          </Button>
          {canCreate ? (
            <Button asChild variant="ghost" size="sm">
              <Link to={links.newSession()}>
                <Plus aria-hidden /> Nueva sesión
              </Link>
            </Button>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}
