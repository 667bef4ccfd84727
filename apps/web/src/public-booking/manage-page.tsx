import { lazy, Suspense, useState } from 'react';
import type { PublicBooking } from '@divan/core';
import { asFailure, bookingApi } from './api';
import { BookingDetails, Done } from './booking-details';
import { manageLoadFailure, messageOf, placeOf, type Failure } from './errors';
import { dayInZone, dayLabel, timeInZone, visitorTimeZone } from '../public-kit/format';
import { formatPrice } from './format';
import { PageFrame } from './frame';
import { Alert, Button, ErrorState, FocusHeading, Skeleton } from './ui';
import { useLoad } from '../public-kit/use-load';

// «Cambiar fecha» brings the calendar when pressed: the link opens with the booking only.
const MoveBooking = lazy(() => import('./manage-move').then((m) => ({ default: m.MoveBooking })));

type Mode = 'view' | 'confirm-cancel' | 'move';

/** `/v1/reservations/manage/:token`: the mailed link to see, cancel or move a booking. */
export function ManagePage({ token }: { token: string }) {
  const page = useLoad(`manage:${token}`, (signal) => bookingApi.booking(token, signal).then((r) => r.booking));
  const [zone] = useState(visitorTimeZone);
  const [mode, setMode] = useState<Mode>('view');
  const [done, setDone] = useState<'canceled' | 'moved' | null>(null);
  const [closed, setClosed] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const booking = page.data;

  const onFailure = (failure: Failure) => {
    if (placeOf(failure.code) === 'closed') {
      setClosed(messageOf(failure));
      setMode('view');
    } else setNotice(messageOf(failure));
  };

  const cancel = async () => {
    setBusy(true);
    setNotice(null);
    try {
      page.set((await bookingApi.cancel(token)).booking);
      setDone('canceled');
      setMode('view');
    } catch (error) {
      onFailure(asFailure(error));
    } finally {
      setBusy(false);
    }
  };

  let body;
  if (page.failure) {
    const failed = manageLoadFailure(page.failure);
    body = <ErrorState title={failed.title} message={failed.message} retry={failed.retry ? page.retry : undefined} />;
  } else if (!booking)
    body = (
      <div className="grid gap-4" aria-busy="true" aria-label="Cargando la reserva">
        <Skeleton className="h-9 w-2/3" />
        <Skeleton className="h-44 rounded-xl" />
        <Skeleton className="h-11 w-48" />
      </div>
    );
  else if (mode === 'move')
    body = (
      <>
        <BookingDetails booking={booking} visitorZone={zone} />
        <Suspense fallback={<Skeleton className="h-80 rounded-xl" />}>
          <MoveBooking
            token={token}
            booking={booking}
            visitorZone={zone}
            onMoved={(moved) => {
              page.set(moved);
              setDone('moved');
              setMode('view');
            }}
            onCancel={() => setMode('view')}
            onClosed={onFailure}
          />
        </Suspense>
      </>
    );
  else
    body = (
      <BookingView
        booking={booking}
        zone={zone}
        mode={mode}
        setMode={setMode}
        done={done}
        closed={closed}
        notice={notice}
        busy={busy}
        onCancel={() => void cancel()}
      />
    );

  return (
    <PageFrame workspace={booking ? { name: booking.workspace.name } : null} title="Tu reserva">
      {body}
    </PageFrame>
  );
}

type ViewProps = {
  booking: PublicBooking;
  zone: string | undefined;
  mode: Mode;
  setMode: (mode: Mode) => void;
  done: 'canceled' | 'moved' | null;
  closed: string | null;
  notice: string | null;
  busy: boolean;
  onCancel: () => void;
};

function BookingView({ booking, zone, mode, setMode, done, closed, notice, busy, onCancel }: ViewProps) {
  const tz = zone ?? booking.timeZone;
  const active = booking.status === 'pending' || booking.status === 'confirmed';
  const until = booking.changeableUntil;
  const open = active && !closed && !!until && Date.parse(until) > Date.now();
  const title =
    done === 'canceled'
      ? 'Reserva cancelada'
      : done === 'moved'
        ? 'Hemos cambiado tu reserva'
        : booking.status === 'canceled'
          ? 'Esta reserva está cancelada'
          : booking.status === 'completed'
            ? 'Esta sesión ya se ha realizado'
            : 'Tu reserva';

  return (
    <section className="grid gap-5" data-testid="manage">
      {done ? <Done /> : null}
      <FocusHeading key={title}>{title}</FocusHeading>
      {done ? (
        <p role="status" className="text-[0.9375rem] font-medium">
          {done === 'canceled' ? 'Te hemos enviado la cancelación por email.' : 'Te hemos enviado la nueva fecha por email.'}
        </p>
      ) : null}
      <BookingDetails booking={booking} visitorZone={zone} />
      {booking.payment ? <PaymentNote payment={booking.payment} /> : null}
      {notice ? <Alert>{notice}</Alert> : null}
      {!active ? null : open && mode === 'confirm-cancel' ? (
        <div className="grid gap-3 rounded-xl border border-destructive/30 bg-card p-4" role="group" aria-labelledby="cancel-question">
          <FocusHeading level={2} id="cancel-question" className="text-lg">
            ¿Seguro que quieres cancelar la reserva?
          </FocusHeading>
          <p className="text-[0.9375rem] text-muted-foreground">
            La hora quedará libre para otra persona. Si después quieres venir, tendrás que reservar de nuevo.
          </p>
          {booking.payment ? (
            <p className="text-[0.9375rem] font-medium">
              Te devolveremos los {formatPrice(booking.payment.amountCents)} que pagaste, a la misma tarjeta.
            </p>
          ) : null}
          <div className="flex flex-wrap gap-3">
            <Button variant="danger" loading={busy} onClick={onCancel}>
              Sí, cancelar la reserva
            </Button>
            <Button variant="outline" onClick={() => setMode('view')}>
              No, mantenerla
            </Button>
          </div>
        </div>
      ) : open ? (
        <div className="grid gap-3">
          <p className="text-[0.9375rem] text-muted-foreground">
            Puedes cambiarla o cancelarla hasta el {dayLabel(dayInZone(until, tz))} a las {timeInZone(until, tz)}.
          </p>
          <div className="flex flex-wrap gap-3">
            <Button onClick={() => setMode('move')}>Cambiar fecha</Button>
            <Button variant="outline" onClick={() => setMode('confirm-cancel')}>
              Cancelar reserva
            </Button>
          </div>
        </div>
      ) : (
        <Alert tone="info" testId="change-closed">
          {closed ?? 'Ya no puedes cancelar ni cambiar esta reserva desde el enlace: escribe a tu terapeuta.'}
        </Alert>
      )}
    </section>
  );
}

/** What was paid at booking, and its way back once the booking is cancelled. */
function PaymentNote({ payment }: { payment: NonNullable<PublicBooking['payment']> }) {
  const amount = formatPrice(payment.amountCents);
  const text =
    payment.refund === 'done'
      ? `Te hemos devuelto los ${amount} que pagaste; según tu banco, puede tardar unos días en verse en tu tarjeta.`
      : payment.refund === 'pending'
        ? `Te devolvemos los ${amount} que pagaste a la misma tarjeta; te avisaremos por email cuando esté hecho.`
        : `Pagada al reservar: ${amount}.`;
  return (
    <p className="text-[0.9375rem] text-muted-foreground" data-testid="booking-payment">
      {text}
    </p>
  );
}
