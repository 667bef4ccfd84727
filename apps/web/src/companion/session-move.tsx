import { useState } from 'react';
import type { CompanionSession } from '@divan/core';
import { dayLabel, visitorTimeZone, zoneCity } from '../public-kit/format';
import { MoveConfirm, MovePicker, useMoveRange, useSlotMove } from '../public-kit/slot-move';
import { sessionsApi } from './api';
import { messageOf, type Failure } from './errors';
import { sessionWhen } from './session-format';
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
  const range = useMoveRange(zone, session.timeZone);
  const slots = useMoveSlots(fileId, session, zone, range.firstMonth);
  const move = useSlotMove(slots, {
    send: async (startsAt) => onMoved(await sessionsApi.move(fileId, session.id, startsAt)),
    placeOf: (failure) =>
      CLOSED.includes(failure.code) ? 'closed' : failure.code === 'public_service_slot_not_available' ? 'slots' : 'here',
    messageOf,
    onClosed,
  });
  const slot = move.slot;
  const when = sessionWhen(session);

  if (slot)
    return (
      <MoveConfirm
        move={move}
        title="¿Cambiamos tu sesión?"
        className="rounded-2xl border bg-card p-4"
        buttonsClassName="gap-2"
        holdWhileBusy
        testId="move-confirm"
      >
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
      </MoveConfirm>
    );

  return (
    <MovePicker
      move={move}
      range={range}
      therapistTimeZone={session.timeZone}
      visitorZone={zone}
      intro={
        <p className="text-[0.9375rem] text-muted-foreground">
          Tu sesión es el <span className="first-letter:uppercase">{when.dayLabel}</span> a las {when.from}. Elige otro día y hora libres
          {session.service ? ` de «${session.service.title}»` : ''}.
        </p>
      }
      keepLabel="Mantener la hora actual"
      onKeep={onBack}
      testId="move-picker"
    />
  );
}
