import { Link } from 'react-router';
import { NotebookPen, Video } from 'lucide-react';
import type { Session } from '@divan/core';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import { formatCurrency, formatDate } from '@/lib/format';
import { useGoogleSessionLink } from '@/lib/google-calendar';
import { cancellationLabel, links, paymentOf, statusOf } from '../utils/session-labels';

type Props = {
  workspaceId: string;
  session: Session;
  /** The dashboard names the patient; the patient's tab the day. */
  show: 'patient' | 'day';
  /** Name the therapist too (the session is not the viewer's own). */
  showTherapist: boolean;
  canWriteNotes: boolean;
};

/** One session in a list: time, who, state badges, and what is left to do (its note, the video call). */
export function SessionRow({ workspaceId, session: s, show, showTherapist, canWriteNotes }: Props) {
  const status = statusOf(s);
  const payment = paymentOf(s);
  const canceled = s.status === 'canceled';
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
      <Link to={links.session(s.id)} className="grid min-w-0 flex-1 basis-56 gap-0.5 rounded-md outline-offset-4">
        <span
          className={cn('flex flex-wrap items-baseline gap-x-2 text-sm', canceled && 'text-muted-foreground line-through decoration-1')}
        >
          {show === 'day' ? <span className="font-medium">{formatDate(s.day)}</span> : null}
          <span className="font-medium tabular-nums">
            {s.from}–{s.to}
          </span>
          {show === 'patient' ? <span className="truncate font-medium text-foreground">{s.patient.name}</span> : null}
          <span className="sr-only">(abrir en el calendario)</span>
        </span>
        <span className="truncate text-[0.8125rem] text-muted-foreground">
          {[
            showTherapist ? s.therapist.name : null,
            s.modality === 'online' ? 'Online' : (s.location?.name ?? 'Presencial'),
            formatCurrency(s.price),
          ]
            .filter(Boolean)
            .join(' · ')}
        </span>
      </Link>
      <span className="flex flex-wrap items-center gap-1.5">
        <Badge variant={status.tone} title={cancellationLabel(s) || undefined}>
          {status.label}
        </Badge>
        {payment ? <Badge variant={payment.tone}>{payment.label}</Badge> : null}
        {s.noteMissing && canWriteNotes ? (
          <Link
            to={links.note(s)}
            className="inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-[0.8125rem] font-medium text-primary hover:underline"
          >
            <NotebookPen className="size-3.5" aria-hidden /> Escribir nota
          </Link>
        ) : s.noteMissing ? (
          <Badge variant="warning">Falta la nota</Badge>
        ) : null}
        {s.modality === 'online' && s.videoConference === 'own' && s.status === 'pending' ? (
          <Link
            to={links.meet(s.id)}
            className="inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-[0.8125rem] font-medium text-primary hover:underline"
          >
            <Video className="size-3.5" aria-hidden /> Videollamada
          </Link>
        ) : s.modality === 'online' && s.videoConference === 'google_meet' && s.status === 'pending' ? (
          <GoogleMeetLink workspaceId={workspaceId} sessionId={s.id} />
        ) : null}
      </span>
    </li>
  );
}

/** A pending online session with Google Meet: «Unirse a Meet» once its Google event carries the link (asked once). */
function GoogleMeetLink({ workspaceId, sessionId }: { workspaceId: string; sessionId: string }) {
  const link = useGoogleSessionLink(workspaceId, sessionId, true, false);
  if (!link.data?.meetLink) return null;
  return (
    <a
      href={link.data.meetLink}
      target="_blank"
      rel="noopener noreferrer"
      className="inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-[0.8125rem] font-medium text-primary hover:underline"
    >
      <Video className="size-3.5" aria-hidden /> Unirse a Meet
      <span className="sr-only"> (se abre en otra pestaña)</span>
    </a>
  );
}
