import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Check, ClipboardCheck, UserX, X } from 'lucide-react';
import type { Session } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { messageOf } from '@/lib/error-message';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useCloseSession } from '../api/agenda-api';
import { links } from '../utils/session-labels';
import { CANCEL_CHOICES, closedText, type Outcome } from '../utils/sessions-to-close';

type Props = {
  workspaceId: string;
  sessions: Session[];
  userId: string;
  /** Whether the member may close this session (update on sessions, for its therapist). */
  canClose: (session: Session) => boolean;
};

/**
 * «Sesiones por cerrar»: sessions already over and still «Pendiente», each closed in one press as it
 * went — «Completada», «No asistió» or «Cancelada» (then why). Its own chunk, loaded only while there is
 * one (through app/screens.ts): the dashboard stays within its budget.
 */
export function SessionsToCloseCard({ workspaceId, sessions, userId, canClose }: Props) {
  const ids = useId();
  const title = useRef<HTMLHeadingElement>(null);
  const close = useCloseSession(workspaceId);
  const [busy, setBusy] = useState<string | null>(null);

  const finish = (s: Session, outcome: Outcome) => {
    setBusy(s.id);
    close.mutate(
      { id: s.id, outcome },
      {
        onSuccess: () => {
          toast.success(closedText(outcome, s.patient.name));
          // The row goes with the refetch: the keyboard stays in the card.
          title.current?.focus();
        },
        onError: (error) => toast.error(messageOf(error)),
        onSettled: () => setBusy(null),
      },
    );
  };

  return (
    <Card role="region" aria-labelledby={`${ids}-title`}>
      <CardHeader className="flex flex-wrap items-center justify-between gap-2">
        <CardTitle id={`${ids}-title`} ref={title} tabIndex={-1} className="flex items-center gap-2 outline-none">
          <ClipboardCheck className="size-4 text-primary" aria-hidden /> Sesiones por cerrar
        </CardTitle>
        <span className="text-[0.8125rem] text-muted-foreground">{sessions.length === 1 ? '1 sesión' : `${sessions.length} sesiones`}</span>
      </CardHeader>
      <CardContent className="grid gap-2">
        <p className="text-sm text-muted-foreground">Ya han pasado y siguen como «Pendiente». Indica cómo fueron:</p>
        <ol className="divide-y" aria-label="Sesiones por cerrar">
          {sessions.map((s) => (
            <Row
              key={s.id}
              session={s}
              showTherapist={s.therapist.id !== userId}
              canClose={canClose(s)}
              busy={busy === s.id}
              disabled={!!busy}
              onClose={(o) => finish(s, o)}
            />
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}

type RowProps = {
  session: Session;
  showTherapist: boolean;
  canClose: boolean;
  busy: boolean;
  disabled: boolean;
  onClose: (outcome: Outcome) => void;
};

function Row({ session: s, showTherapist, canClose, busy, disabled, onClose }: RowProps) {
  const [canceling, setCanceling] = useState(false);
  const first = useRef<HTMLButtonElement>(null);
  const who = `${s.patient.name}, ${formatDate(s.day)} ${s.from}`;
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
      <Link to={links.session(s.id)} className="grid min-w-0 flex-1 basis-48 gap-0.5 rounded-md outline-offset-4">
        <span className="flex flex-wrap items-baseline gap-x-2 text-sm">
          <span className="font-medium tabular-nums">
            {formatDate(s.day)} {s.from}–{s.to}
          </span>
          <span className="truncate font-medium">{s.patient.name}</span>
          <span className="sr-only">(abrir en el calendario)</span>
        </span>
        {showTherapist ? <span className="truncate text-[0.8125rem] text-muted-foreground">{s.therapist.name}</span> : null}
      </Link>
      {!canClose ? null : canceling ? (
        <span
          role="group"
          aria-label={`Motivo de la cancelación de ${who}`}
          aria-busy={busy || undefined}
          className="flex flex-wrap items-center gap-1.5"
        >
          {CANCEL_CHOICES.map((c, i) => (
            <Button
              key={c.reason}
              ref={i === 0 ? first : undefined}
              variant="outline"
              size="sm"
              disabled={disabled}
              onClick={() => onClose({ kind: 'canceled', reason: c.reason })}
            >
              {c.label}
            </Button>
          ))}
          <Button variant="ghost" size="sm" disabled={disabled} onClick={() => setCanceling(false)}>
            Volver
          </Button>
        </span>
      ) : (
        // A phone: the three side by side, full width, without their icons.
        <span className="grid w-full grid-cols-3 gap-1.5 sm:flex sm:w-auto sm:flex-wrap sm:items-center [&_button]:px-2.5 max-sm:[&_svg]:hidden">
          <Button
            variant="outline"
            size="sm"
            disabled={disabled}
            loading={busy}
            aria-label={`Completada: ${who}`}
            onClick={() => onClose({ kind: 'completed' })}
          >
            <Check aria-hidden /> Completada
          </Button>
          <Button
            variant="ghost"
            size="sm"
            disabled={disabled}
            aria-label={`No asistió: ${who}`}
            onClick={() => onClose({ kind: 'canceled', reason: 'no_show' })}
          >
            <UserX aria-hidden /> No asistió
          </Button>
          <Button
            variant="ghost"
            size="sm"
            disabled={disabled}
            aria-label={`Cancelada: ${who}`}
            onClick={() => {
              setCanceling(true);
              requestAnimationFrame(() => first.current?.focus());
            }}
          >
            <X aria-hidden /> Cancelada
          </Button>
        </span>
      )}
    </li>
  );
}
