import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Ban, CalendarClock, Check, CircleAlert, Euro, MapPin, MoveRight, NotebookPen, Pencil, Repeat, Video } from 'lucide-react';
import { canAny, canOn, CANCELLATION_REASON, formatCents, MODALITY, PAYMENT_STATUS, PAYMENT_TYPE, SESSION_STATUS } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogHeader } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { useAbility } from '@/lib/ability';
import { toast } from '@/lib/toast';
import { useGoogleSessionLink } from '@/lib/google-calendar';
import { useCompleteSession, useSession } from '../api/sessions-api';
import type { CalendarSession } from '../api/types';
import { formatDayLong } from '../utils/dates';
import { messageOf } from '@/lib/error-message';
import { CancelPanel, MovePanel, PayPanel } from './session-actions';

type Panel = 'detail' | 'move' | 'cancel' | 'pay';
const TITLES: Record<Panel, string> = { detail: 'Sesión', move: 'Mover sesión', cancel: 'Cancelar sesión', pay: 'Marcar como pagada' };

type Props = {
  workspaceId: string;
  sessionId: string;
  onClose: () => void;
  onEdit: (s: CalendarSession) => void;
  onLoaded?: (s: CalendarSession) => void;
};

/** A session's detail and what can be done with it; Mover/Cancelar/Pagada open in place (one dialog, one Esc). */
export function SessionDetailDialog({ workspaceId: wid, sessionId, onClose, onEdit, onLoaded }: Props) {
  const session = useSession(wid, sessionId);
  const [panel, setPanel] = useState<Panel>('detail');
  const s = session.data;
  // Opened from a link (?session=): the calendar jumps to its day, once.
  const loadedDay = s?.day;
  useEffect(() => {
    if (s && loadedDay) onLoaded?.(s);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per loaded session
  }, [sessionId, loadedDay]);
  const title = panel === 'detail' ? (s ? s.patient.name : TITLES.detail) : TITLES[panel];

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        className="max-w-lg"
        onEscapeKeyDown={(e) => {
          // Esc in a sub-panel goes back to the detail first.
          if (panel !== 'detail') {
            e.preventDefault();
            setPanel('detail');
          }
        }}
      >
        <DialogHeader
          title={title}
          description={panel === 'detail' ? undefined : s ? `${s.patient.name} · ${formatDayLong(s.day)}, ${s.from}–${s.to}` : undefined}
        />
        {session.isPending ? (
          <div className="grid place-items-center py-8">
            <Spinner label="Cargando la sesión…" />
          </div>
        ) : session.isError ? (
          <Alert variant="error">{messageOf(session.error)}</Alert>
        ) : panel === 'move' ? (
          <MovePanel workspaceId={wid} session={s!} onDone={() => setPanel('detail')} onMoved={onClose} />
        ) : panel === 'cancel' ? (
          <CancelPanel workspaceId={wid} session={s!} onDone={() => setPanel('detail')} />
        ) : panel === 'pay' ? (
          <PayPanel workspaceId={wid} session={s!} onDone={() => setPanel('detail')} />
        ) : (
          <Detail workspaceId={wid} session={s!} onPanel={setPanel} onEdit={() => onEdit(s!)} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function Row({ icon: Icon, children }: { icon: typeof CalendarClock; children: ReactNode }) {
  return (
    <div className="flex items-start gap-3 text-sm">
      <Icon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}

function Detail({
  workspaceId: wid,
  session: s,
  onPanel,
  onEdit,
}: {
  workspaceId: string;
  session: CalendarSession;
  onPanel: (p: Panel) => void;
  onEdit: () => void;
}) {
  const ability = useAbility();
  const complete = useCompleteSession(wid);
  const canUpdate = canOn(ability, 'update', 'sessions', { ownerId: s.therapist.id });
  const canNote = canAny(ability, 'create', 'patient_histories') && s.status !== 'canceled';
  const canceled = s.status === 'canceled';
  const markDone = () =>
    complete.mutate(s.id, {
      onSuccess: () => toast.success('Sesión marcada como realizada', { description: s.patient.name }),
      onError: (err) => toast.error(messageOf(err)),
    });

  return (
    <div className="grid gap-5">
      <div className="flex flex-wrap gap-1.5">
        <Badge variant={s.status === 'completed' ? 'accent' : s.status === 'canceled' ? 'destructive' : 'neutral'}>
          {SESSION_STATUS.labels[s.status]}
        </Badge>
        <Badge variant={s.paymentStatus === 'paid' ? 'accent' : 'outline'}>
          {s.paymentStatus === 'paid'
            ? `Pagada${s.paymentType ? ` · ${PAYMENT_TYPE.labels[s.paymentType]}` : ''}`
            : `Pago ${PAYMENT_STATUS.labels[s.paymentStatus].toLowerCase()}`}
        </Badge>
        {s.noteMissing ? (
          <Badge variant="warning">
            <CircleAlert className="size-3" aria-hidden /> Falta la nota
          </Badge>
        ) : null}
      </div>

      <div className="grid gap-3">
        <Row icon={CalendarClock}>
          <p className="font-medium first-letter:uppercase">{formatDayLong(s.day)}</p>
          <p className="text-muted-foreground">
            {s.from}–{s.to} · con {s.therapist.name}
          </p>
        </Row>
        {s.series ? (
          <Row icon={Repeat}>
            <p>{s.series.description}</p>
            <p className="text-muted-foreground">
              Sesión {s.series.index + 1} de la serie{s.series.moved ? ' · movida de su hora habitual' : ''}
            </p>
          </Row>
        ) : null}
        <Row icon={s.modality === 'online' ? Video : MapPin}>
          <p>
            {MODALITY.labels[s.modality]}
            {s.location ? ` · ${s.location.name}` : ''}
          </p>
          {s.modality === 'online' && !canceled && s.videoConference === 'google_meet' ? (
            <GoogleMeetLink workspaceId={wid} sessionId={s.id} />
          ) : s.modality === 'online' && !canceled ? (
            <Link
              to={`/meet/${s.id}`}
              className="mt-1 inline-flex items-center gap-1.5 font-medium text-primary underline-offset-4 hover:underline"
            >
              <Video className="size-4" aria-hidden /> Unirse a la videollamada
            </Link>
          ) : null}
        </Row>
        <Row icon={Euro}>
          <p>{formatCents(s.price)}</p>
        </Row>
        {canceled && s.cancellationReason ? (
          <Row icon={Ban}>
            <p>{CANCELLATION_REASON.labels[s.cancellationReason]}</p>
          </Row>
        ) : null}
        <p className="text-sm">
          <Link to={`/patients/${s.patient.id}/overview`} className="font-medium text-primary underline-offset-4 hover:underline">
            Ver la ficha de {s.patient.name}
          </Link>
        </p>
      </div>

      {canUpdate || canNote ? (
        <div className="grid gap-2 border-t pt-4">
          <div className="flex flex-wrap gap-2">
            {canUpdate && !canceled ? (
              <>
                <Button variant="outline" size="sm" onClick={onEdit}>
                  <Pencil aria-hidden /> Editar
                </Button>
                <Button variant="outline" size="sm" onClick={() => onPanel('move')}>
                  <MoveRight aria-hidden /> Mover
                </Button>
              </>
            ) : null}
            {canNote ? (
              <Button variant="outline" size="sm" asChild>
                <Link to={`/patients/${s.patient.id}/history?session=${s.id}`}>
                  <NotebookPen aria-hidden /> Escribir nota
                </Link>
              </Button>
            ) : null}
          </div>
          {canUpdate ? (
            <div className="flex flex-wrap gap-2">
              {s.status === 'pending' ? (
                <Button size="sm" onClick={markDone} loading={complete.isPending}>
                  <Check aria-hidden /> Marcar como realizada
                </Button>
              ) : null}
              {s.paymentStatus !== 'paid' && !canceled ? (
                <Button size="sm" variant="secondary" onClick={() => onPanel('pay')}>
                  <Euro aria-hidden /> Marcar como pagada
                </Button>
              ) : null}
              {!canceled ? (
                <Button size="sm" variant="ghost" className="text-destructive hover:bg-destructive/10" onClick={() => onPanel('cancel')}>
                  <Ban aria-hidden /> Cancelar sesión
                </Button>
              ) : null}
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** An online session with Google Meet: its Meet link, once the session's Google event carries one. */
function GoogleMeetLink({ workspaceId, sessionId }: { workspaceId: string; sessionId: string }) {
  const link = useGoogleSessionLink(workspaceId, sessionId, true);
  if (link.data?.meetLink)
    return (
      <a
        href={link.data.meetLink}
        target="_blank"
        rel="noopener noreferrer"
        className="mt-1 inline-flex items-center gap-1.5 font-medium text-primary underline-offset-4 hover:underline"
      >
        <Video className="size-4" aria-hidden /> Unirse con Google Meet
        <span className="sr-only"> (se abre en otra pestaña)</span>
      </a>
    );
  return (
    <p className="mt-1 text-muted-foreground">
      {link.isPending
        ? 'Buscando el enlace de Google Meet…'
        : link.isError
          ? 'No hemos podido leer el enlace de Google Meet.'
          : 'Con Google Meet: el enlace aparecerá aquí en cuanto la sesión esté en tu Google Calendar.'}
    </p>
  );
}
