import { useEffect, type ReactNode } from 'react';
import type { PublicBooking } from '@divan/core';
import { timeInZone, zoneCity } from '../public-kit/format';
import { sessionLabel } from './format';
import { modalityText } from './service-card';
import { Button, FocusHeading } from './ui';

/** When, with whom, what and where: in the visitor's zone, the consulting room's time beside it when it differs. */
export function BookingDetails({ booking, visitorZone }: { booking: PublicBooking; visitorZone: string | undefined }) {
  const zone = visitorZone ?? booking.timeZone;
  const theirs = timeInZone(booking.startsAt, booking.timeZone);
  const differs = zone !== booking.timeZone && timeInZone(booking.startsAt, zone) !== theirs;
  const rows: [string, ReactNode][] = [
    [
      'Fecha y hora',
      <>
        <span className="block first-letter:uppercase">{sessionLabel(booking.startsAt, booking.endsAt, zone)}</span>
        {differs ? (
          <span className="block text-[0.8125rem] text-muted-foreground">{`A las ${theirs} en ${zoneCity(booking.timeZone)}, la hora de la consulta`}</span>
        ) : null}
      </>,
    ],
    ['Profesional', booking.therapist.name],
    ['Servicio', booking.service.title],
    ['Modalidad', modalityText(booking.modality, booking.location)],
  ];
  return (
    <dl className="grid gap-3 rounded-xl border bg-card p-4 shadow-xs sm:grid-cols-[auto_1fr] sm:gap-x-6" data-testid="booking-details">
      {rows.map(([term, value]) => (
        <div key={term} className="grid gap-0.5 sm:contents">
          <dt className="text-[0.8125rem] font-medium text-muted-foreground sm:text-sm">{term}</dt>
          <dd className="text-[0.9375rem] font-medium">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The end of a booking: done, and the mail on its way. */
export function BookedScreen({ booking, visitorZone }: { booking: PublicBooking; visitorZone: string | undefined }) {
  return (
    <section role="status" className="grid gap-5" data-testid="booked">
      <Done />
      <FocusHeading>Reserva confirmada</FocusHeading>
      <BookingDetails booking={booking} visitorZone={visitorZone} />
      <p className="text-[0.9375rem] font-medium">Te hemos enviado la confirmación por email.</p>
      <p className="text-[0.9375rem] text-muted-foreground">
        En ese email tienes un enlace para cancelar o cambiar la cita si lo necesitas. Ya puedes cerrar esta página.
      </p>
    </section>
  );
}

/** The session is paid at booking: off to the payment page (in a frame, by the visitor's own click). */
export function PaymentScreen({ checkoutUrl, embedded }: { checkoutUrl: string; embedded: boolean }) {
  useEffect(() => {
    if (!embedded) window.location.assign(checkoutUrl);
  }, [checkoutUrl, embedded]);
  return (
    <section className="grid gap-5" data-testid="payment-required">
      <FocusHeading>{embedded ? 'Falta el pago' : 'Te llevamos al pago…'}</FocusHeading>
      <p className="text-[0.9375rem] text-muted-foreground">
        Tu hora queda reservada mientras pagas. La reserva se confirma en cuanto se completa el pago.
      </p>
      <div>
        <Button onClick={() => (embedded ? window.open(checkoutUrl, '_top') : window.location.assign(checkoutUrl))}>Ir al pago</Button>
      </div>
    </section>
  );
}

export function Done() {
  return (
    <span aria-hidden className="grid size-14 place-items-center rounded-full bg-success/10 text-success">
      <svg
        viewBox="0 0 24 24"
        className="size-7"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <circle cx="12" cy="12" r="10" />
        <path d="m9 12 2 2 4-4" />
      </svg>
    </span>
  );
}
