import { useState } from 'react';
import type { PublicBooking } from '@divan/core';
import { asFailure, bookingApi } from './api';
import { messageOf, placeOf, type Failure } from './errors';
import { dayInZone, dayLabel, zoneCity } from './format';
import { lastMonth, SlotPicker, useMonthSlots } from './service-page';
import type { Slot } from './slots';
import { Alert, Button, FocusHeading } from './ui';

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
  const [today] = useState(() => dayInZone(new Date(), visitorZone ?? booking.timeZone));
  const [maxMonth] = useState(() => lastMonth(new Date(), booking.timeZone, undefined));
  const slots = useMonthSlots(ids, visitorZone, today.slice(0, 7));
  const [day, setDay] = useState<string | null>(null);
  const [slot, setSlot] = useState<Slot | null>(null);
  const [notice, setNotice] = useState<{ at: 'slots' | 'confirm'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const move = async () => {
    if (!slot) return;
    setBusy(true);
    setNotice(null);
    try {
      onMoved((await bookingApi.move(token, slot.startsAt)).booking);
    } catch (error) {
      const failure = asFailure(error);
      const place = placeOf(failure.code);
      if (place === 'closed' || place === 'page') onClosed(failure);
      else if (place === 'slots') {
        setSlot(null);
        setNotice({ at: 'slots', text: messageOf(failure) });
        slots.reload(slots.month);
      } else setNotice({ at: 'confirm', text: messageOf(failure) });
    } finally {
      setBusy(false);
    }
  };

  if (slot)
    return (
      <section className="grid gap-4" aria-labelledby="move-title">
        <FocusHeading level={2} id="move-title">
          ¿Cambiamos tu cita?
        </FocusHeading>
        <p className="text-[0.9375rem]" data-testid="move-to">
          Nueva fecha: <span className="font-semibold first-letter:uppercase">{dayLabel(slot.visitor.day)}</span> a las{' '}
          <span className="font-semibold">{slot.visitor.from}</span>
          {slot.sameLocalTime ? null : ` (${slot.therapist.from} en ${zoneCity(booking.timeZone)})`}
        </p>
        {notice?.at === 'confirm' ? <Alert>{notice.text}</Alert> : null}
        <div className="flex flex-wrap gap-3">
          <Button loading={busy} onClick={() => void move()}>
            Confirmar el cambio
          </Button>
          <Button
            variant="outline"
            onClick={() => {
              setSlot(null);
              setNotice(null);
            }}
          >
            Elegir otra hora
          </Button>
        </div>
      </section>
    );

  return (
    <div className="grid gap-4">
      <SlotPicker
        slots={slots}
        day={day}
        onDay={setDay}
        onPick={setSlot}
        picked={null}
        therapistTimeZone={booking.timeZone}
        visitorZone={visitorZone}
        minMonth={today.slice(0, 7)}
        maxMonth={maxMonth}
        today={today}
        notice={notice?.at === 'slots' ? notice.text : null}
        focusTitle
      />
      <div>
        <Button variant="ghost" onClick={onCancel}>
          Mantener la fecha actual
        </Button>
      </div>
    </div>
  );
}
