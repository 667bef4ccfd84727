import { useState } from 'react';
import type { CompanionSession } from '@divan/core';
import { dayInZone, dayLabel, visitorTimeZone, zoneCity } from '../public-booking/format';
import { SlotPicker } from '../public-booking/slot-picker';
import type { Slot } from '../public-booking/slots';
import { lastMonth } from '../public-booking/slots';
import { sessionsApi } from './api';
import { asFailure, messageOf, type Failure } from './errors';
import { sessionWhen } from './session-format';
import { Alert, Button, FocusHeading } from './ui';
import { useMoveSlots } from './use-move-slots';

type Props = {
  fileId: string;
  session: CompanionSession;
  onMoved: (session: CompanionSession) => void;
  onBack: () => void;
  /** The server refuses any change now (too late, or not the patient's to change): back to the list, said there. */
  onClosed: (failure: Failure) => void;
};

const CLOSED = [
  'companion_session_change_closed',
  'companion_session_not_changeable',
  'therapy_session_not_found',
  'public_service_not_found',
];

/** «Cambiar hora»: the free days of the session's service, the chosen day's hours, then one confirmation. */
export function SessionMove({ fileId, session, onMoved, onBack, onClosed }: Props) {
  const [zone] = useState(visitorTimeZone);
  const [today] = useState(() => dayInZone(new Date(), zone ?? session.timeZone));
  const [maxMonth] = useState(() => lastMonth(new Date(), session.timeZone, undefined));
  const slots = useMoveSlots(fileId, session, zone, today.slice(0, 7));
  const [day, setDay] = useState<string | null>(null);
  const [slot, setSlot] = useState<Slot | null>(null);
  const [notice, setNotice] = useState<{ at: 'slots' | 'confirm'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const when = sessionWhen(session);

  const move = async () => {
    if (!slot) return;
    setBusy(true);
    setNotice(null);
    try {
      onMoved(await sessionsApi.move(fileId, session.id, slot.startsAt));
    } catch (error) {
      const failure = asFailure(error);
      setBusy(false);
      if (CLOSED.includes(failure.code)) onClosed(failure);
      else if (failure.code === 'public_service_slot_not_available') {
        setSlot(null);
        setNotice({ at: 'slots', text: messageOf(failure) });
        slots.reload(slots.month);
      } else setNotice({ at: 'confirm', text: messageOf(failure) });
    }
  };

  if (slot)
    return (
      <section className="grid gap-4 rounded-2xl border bg-card p-4" aria-labelledby="move-title" data-testid="move-confirm">
        <FocusHeading level={2} id="move-title">
          ¿Cambiamos tu sesión?
        </FocusHeading>
        <dl className="grid gap-1 text-[0.9375rem]">
          <div>
            <dt className="inline text-muted-foreground">Ahora: </dt>
            <dd className="inline">
              <span className="first-letter:uppercase">{when.dayLabel}</span> a las {when.from}
            </dd>
          </div>
          <div>
            <dt className="inline text-muted-foreground">Nueva hora: </dt>
            <dd className="inline font-semibold" data-testid="move-to">
              {dayLabel(slot.visitor.day)} a las {slot.visitor.from}
              {slot.sameLocalTime ? null : ` (${slot.therapist.from} en ${zoneCity(session.timeZone)})`}
            </dd>
          </div>
        </dl>
        {notice?.at === 'confirm' ? <Alert>{notice.text}</Alert> : null}
        <div className="flex flex-wrap gap-2">
          <Button loading={busy} onClick={() => void move()}>
            Confirmar el cambio
          </Button>
          <Button variant="outline" disabled={busy} onClick={() => (setSlot(null), setNotice(null))}>
            Elegir otra hora
          </Button>
        </div>
      </section>
    );

  return (
    <div className="grid gap-4" data-testid="move-picker">
      <p className="text-[0.9375rem] text-muted-foreground">
        Tu sesión es el <span className="first-letter:uppercase">{when.dayLabel}</span> a las {when.from}. Elige otro día y hora libres
        {session.service ? ` de «${session.service.title}»` : ''}.
      </p>
      <SlotPicker
        slots={slots}
        day={day}
        onDay={setDay}
        onPick={setSlot}
        picked={null}
        therapistTimeZone={session.timeZone}
        visitorZone={zone}
        minMonth={today.slice(0, 7)}
        maxMonth={maxMonth}
        today={today}
        notice={notice?.at === 'slots' ? notice.text : null}
        focusTitle
      />
      <div>
        <Button variant="ghost" onClick={onBack}>
          Mantener la hora actual
        </Button>
      </div>
    </div>
  );
}
