import { useEffect, useRef, useState } from 'react';
import { formatCents, type CompanionSession } from '@divan/core';
import { sessionsApi } from './api';
import { ConfirmDialog } from './confirm-dialog';
import { asFailure, messageOf, type Failure } from './errors';
import { SessionCard } from './session-card';
import { sessionWhen } from './session-format';
import { SessionMove } from './session-move';
import { Alert, Button, EmptyState, ErrorState, h2Class, ListSkeleton } from './ui';
import { usePages, type Pages } from './use-pages';

type Notice = { tone: 'info' | 'error'; text: string };

/** «Sesiones» of a connected file: the upcoming ones (soonest first), the past ones (latest first), cancel and move. */
export function SessionsSection({ fileId }: { fileId: string }) {
  const upcoming = usePages(`${fileId}/upcoming`, (page, signal) => sessionsApi.list(fileId, 'upcoming', page, signal));
  const past = usePages(`${fileId}/past`, (page, signal) => sessionsApi.list(fileId, 'past', page, signal));
  const [moving, setMoving] = useState<CompanionSession | null>(null);
  const [canceling, setCanceling] = useState<CompanionSession | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  // Back from «Cambiar hora» without a change: the focus returns to the button that opened it.
  const [backFrom, setBackFrom] = useState<string | null>(null);
  useEffect(() => {
    if (!backFrom || moving) return;
    document.querySelector<HTMLButtonElement>(`[data-move="${backFrom}"]`)?.focus();
    setBackFrom(null);
  }, [backFrom, moving]);

  const changed = (text: Notice) => {
    setNotice(text);
    setMoving(null);
    setCanceling(null);
    upcoming.reload();
    past.reload();
  };
  const closed = (failure: Failure) => changed({ tone: 'error', text: messageOf(failure) });

  if (moving)
    return (
      <SessionMove
        fileId={fileId}
        session={moving}
        onBack={() => {
          setBackFrom(moving.id);
          setMoving(null);
        }}
        onClosed={closed}
        onMoved={(s) => {
          const when = sessionWhen(s);
          changed({ tone: 'info', text: `Hecho: tu sesión ahora es el ${when.dayLabel} a las ${when.from}.` });
        }}
      />
    );

  return (
    <div className="grid gap-6">
      {notice ? <NoticeLine notice={notice} /> : null}
      <SessionList
        title="Próximas sesiones"
        id="upcoming"
        pages={upcoming}
        fileId={fileId}
        upcoming
        onCancel={setCanceling}
        onMove={setMoving}
        empty="No tienes sesiones próximas."
      />
      <SessionList
        title="Sesiones anteriores"
        id="past"
        pages={past}
        fileId={fileId}
        upcoming={false}
        onCancel={setCanceling}
        onMove={setMoving}
        empty="Aún no hay sesiones anteriores."
      />
      {canceling ? (
        <CancelSession fileId={fileId} session={canceling} onClose={() => setCanceling(null)} onDone={changed} onClosed={closed} />
      ) : null}
    </div>
  );
}

/** The result of a change, read out and focused (the card it came from may be gone). */
function NoticeLine({ notice }: { notice: Notice }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), [notice]);
  return (
    <div ref={ref} tabIndex={-1} className="outline-none" data-testid="sessions-notice">
      <Alert tone={notice.tone}>{notice.text}</Alert>
    </div>
  );
}

type ListProps = {
  title: string;
  id: string;
  pages: Pages<CompanionSession>;
  fileId: string;
  upcoming: boolean;
  empty: string;
  onCancel: (s: CompanionSession) => void;
  onMove: (s: CompanionSession) => void;
};

function SessionList({ title, id, pages, fileId, upcoming, empty, onCancel, onMove }: ListProps) {
  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-3" data-testid={`sessions-${id}`}>
      <h2 id={`${id}-title`} className={h2Class}>
        {title}
      </h2>
      {pages.failure && !pages.items ? (
        <ErrorState title="No se han podido cargar las sesiones" message={messageOf(pages.failure)} retry={pages.reload} />
      ) : !pages.items ? (
        <ListSkeleton rows={upcoming ? 2 : 1} />
      ) : !pages.items.length ? (
        <EmptyState title={empty}>{upcoming ? 'Cuando tu terapeuta te dé cita, la verás aquí.' : null}</EmptyState>
      ) : (
        <>
          <ul className="grid gap-3">
            {pages.items.map((s) => (
              <SessionCard key={s.id} fileId={fileId} session={s} upcoming={upcoming} onCancel={onCancel} onMove={onMove} />
            ))}
          </ul>
          {pages.failure ? (
            <Alert>
              No se ha podido actualizar la lista: {messageOf(pages.failure)}{' '}
              <Button variant="ghost" className="min-h-0 px-1 py-0 underline" onClick={pages.reload}>
                Reintentar
              </Button>
            </Alert>
          ) : null}
          {pages.moreFailure ? <Alert>{messageOf(pages.moreFailure)}</Alert> : null}
          {pages.hasMore ? (
            <div>
              <Button variant="outline" loading={pages.loadingMore} onClick={pages.more}>
                Ver más
              </Button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

const CLOSED = ['companion_session_change_closed', 'companion_session_not_changeable', 'therapy_session_not_found'];

function CancelSession({
  fileId,
  session,
  onClose,
  onDone,
  onClosed,
}: {
  fileId: string;
  session: CompanionSession;
  onClose: () => void;
  onDone: (n: Notice) => void;
  onClosed: (f: Failure) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const when = sessionWhen(session);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await sessionsApi.cancel(fileId, session.id);
      onDone({ tone: 'info', text: `Sesión del ${when.dayLabel} a las ${when.from} cancelada.` });
    } catch (e) {
      const failure = asFailure(e);
      setBusy(false);
      if (CLOSED.includes(failure.code)) onClosed(failure);
      else setError(messageOf(failure));
    }
  };
  return (
    <ConfirmDialog
      title="¿Cancelar esta sesión?"
      confirmLabel="Sí, cancelar la sesión"
      keepLabel="No, mantenerla"
      busy={busy}
      error={error}
      onConfirm={() => void confirm()}
      onClose={onClose}
    >
      <p>
        La sesión del <span className="font-semibold text-foreground">{when.dayLabel}</span>, de {when.from} a {when.to}, con{' '}
        {session.therapistName}.
      </p>
      {session.payment?.refund === 'none' ? (
        <p>Te devolveremos los {formatCents(session.payment.amountCents)} que pagaste al reservar, a la misma tarjeta.</p>
      ) : null}
      <p>No se puede deshacer: si después quieres otra cita, tendrás que reservarla de nuevo.</p>
    </ConfirmDialog>
  );
}
