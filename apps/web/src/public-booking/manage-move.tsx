import type { PublicBooking } from '@divan/core';
import { dayLabel, zoneCity } from '../public-kit/format';
import { MoveConfirm, MovePicker, useMoveRange, useSlotMove } from '../public-kit/slot-move';
import { bookingApi } from './api';
import { messageOf, placeOf, type Failure } from './errors';
import { useMonthSlots } from './service-page';

type Props = {
  token: string;
  booking: PublicBooking;
  visitorZone: string | undefined;
  onMoved: (booking: PublicBooking) => void;
  onCancel: () => void;
  /** The server says the booking can no longer be changed. */
  onClosed: (failure: Failure) => void;
};

/** «Cambiar fecha»: the same service's free days and hours, then one confirmation. */
export function MoveBooking({ token, booking, visitorZone, onMoved, onCancel, onClosed }: Props) {
  const ids = { workspaceId: booking.workspace.id, therapistId: booking.therapist.id, serviceId: booking.service.id };
  const range = useMoveRange(visitorZone, booking.timeZone);
  const slots = useMonthSlots(ids, visitorZone, range.firstMonth);
  const move = useSlotMove(slots, {
    send: async (startsAt) => onMoved((await bookingApi.move(token, startsAt)).booking),
    placeOf: (failure) => {
      const place = placeOf(failure.code);
      return place === 'closed' || place === 'page' ? 'closed' : place === 'slots' ? 'slots' : 'here';
    },
    messageOf,
    onClosed,
  });
  const slot = move.slot;

  if (slot)
    return (
      <MoveConfirm move={move} title="¿Cambiamos tu cita?">
        <p className="text-[0.9375rem]" data-testid="move-to">
          Nueva fecha: <span className="font-semibold first-letter:uppercase">{dayLabel(slot.visitor.day)}</span> a las{' '}
          <span className="font-semibold">{slot.visitor.from}</span>
          {slot.sameLocalTime ? null : ` (${slot.therapist.from} en ${zoneCity(booking.timeZone)})`}
        </p>
      </MoveConfirm>
    );

  return (
    <MovePicker
      move={move}
      range={range}
      therapistTimeZone={booking.timeZone}
      visitorZone={visitorZone}
      keepLabel="Mantener la fecha actual"
      onKeep={onCancel}
    />
  );
}
