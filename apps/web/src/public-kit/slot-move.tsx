/**
 * «Move to another free slot», as the booking's manage link and the companion both offer it: the free
 * days and hours of the same service (the current one left out by the caller's slots), then one
 * confirmation. Each bundle says what is moved and how the server is asked; the steps are the same.
 */
import { useState, type ReactNode } from 'react';
import { asFailure, type Failure } from './failure';
import { dayInZone } from './format';
import { SlotPicker } from './slot-picker';
import { lastMonth, type Slot } from './slots';
import { Alert, Button, FocusHeading, cx } from './ui';
import type { MonthSlots } from './use-slot-months';

/** Where a refused move is said: the page is closed to changes, back at the slots (the hour was taken), or at the confirmation. */
export type MovePlace = 'closed' | 'slots' | 'here';

/** Today and the last month worth showing, fixed when the move opens: the visitor's day, the therapist's notice. */
export function useMoveRange(visitorZone: string | undefined, therapistTimeZone: string) {
  const [today] = useState(() => dayInZone(new Date(), visitorZone ?? therapistTimeZone));
  const [maxMonth] = useState(() => lastMonth(new Date(), therapistTimeZone, undefined));
  return { today, firstMonth: today.slice(0, 7), maxMonth };
}

type MoveOptions = {
  /** Asks the server; throws a Failure when it refuses. */
  send: (startsAt: string) => Promise<void>;
  placeOf: (failure: Failure) => MovePlace;
  messageOf: (failure: Failure) => string;
  onClosed: (failure: Failure) => void;
};

/** The move's steps: the day looked at, the hour picked, a notice where it belongs, and the call itself. */
export function useSlotMove(slots: MonthSlots, { send, placeOf, messageOf, onClosed }: MoveOptions) {
  const [day, setDay] = useState<string | null>(null);
  const [slot, setSlot] = useState<Slot | null>(null);
  const [notice, setNotice] = useState<{ at: 'slots' | 'confirm'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    if (!slot) return;
    setBusy(true);
    setNotice(null);
    try {
      await send(slot.startsAt);
    } catch (error) {
      const failure = asFailure(error);
      setBusy(false);
      const place = placeOf(failure);
      if (place === 'closed') onClosed(failure);
      else if (place === 'slots') {
        setSlot(null);
        setNotice({ at: 'slots', text: messageOf(failure) });
        slots.reload(slots.month);
      } else setNotice({ at: 'confirm', text: messageOf(failure) });
    }
  };
  const pickAnother = () => {
    setSlot(null);
    setNotice(null);
  };
  return { slots, day, setDay, slot, setSlot, notice, busy, confirm, pickAnother };
}
export type SlotMove = ReturnType<typeof useSlotMove>;

type PickerProps = {
  move: SlotMove;
  range: ReturnType<typeof useMoveRange>;
  therapistTimeZone: string;
  visitorZone: string | undefined;
  /** What is being moved, above the calendar. */
  intro?: ReactNode;
  keepLabel: string;
  onKeep: () => void;
  testId?: string;
};

/** The calendar of free hours, and a way to keep the current one. */
export function MovePicker({ move, range, therapistTimeZone, visitorZone, intro, keepLabel, onKeep, testId }: PickerProps) {
  return (
    <div className="grid gap-4" data-testid={testId}>
      {intro}
      <SlotPicker
        slots={move.slots}
        day={move.day}
        onDay={move.setDay}
        onPick={move.setSlot}
        picked={null}
        therapistTimeZone={therapistTimeZone}
        visitorZone={visitorZone}
        minMonth={range.firstMonth}
        maxMonth={range.maxMonth}
        today={range.today}
        notice={move.notice?.at === 'slots' ? move.notice.text : null}
        focusTitle
      />
      <div>
        <Button variant="ghost" onClick={onKeep}>
          {keepLabel}
        </Button>
      </div>
    </div>
  );
}

type ConfirmProps = {
  move: SlotMove;
  title: string;
  /** The new hour (and the old one), as the bundle words it. */
  children: ReactNode;
  className?: string;
  buttonsClassName?: string;
  /** «Elegir otra hora» waits for the answer too. */
  holdWhileBusy?: boolean;
  testId?: string;
};

/** «¿Cambiamos …?»: the new hour, what went wrong if anything, and the two ways on. */
export function MoveConfirm({ move, title, children, className, buttonsClassName, holdWhileBusy, testId }: ConfirmProps) {
  return (
    <section className={cx('grid gap-4', className)} aria-labelledby="move-title" data-testid={testId}>
      <FocusHeading level={2} id="move-title">
        {title}
      </FocusHeading>
      {children}
      {move.notice?.at === 'confirm' ? <Alert>{move.notice.text}</Alert> : null}
      <div className={cx('flex flex-wrap', buttonsClassName ?? 'gap-3')}>
        <Button loading={move.busy} onClick={() => void move.confirm()}>
          Confirmar el cambio
        </Button>
        <Button variant="outline" disabled={holdWhileBusy && move.busy} onClick={move.pickAnother}>
          Elegir otra hora
        </Button>
      </div>
    </section>
  );
}
