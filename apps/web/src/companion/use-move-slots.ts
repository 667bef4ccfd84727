import { useCallback, useEffect, useMemo, useState } from 'react';
import type { PublicSlots } from '@divan/core';
import type { MonthSlots } from '../public-booking/use-month-slots';
import { slotsByVisitorDay } from '../public-booking/slots';
import { sessionsApi } from './api';
import { asFailure, isAbort, type Failure } from './errors';

/**
 * The free slots to move a session to, month by month (kept, so going back a month is instant), by the
 * patient's day, in the shape the booking pages' slot picker reads. The session's own time is left out.
 */
export function useMoveSlots(fileId: string, session: { id: string; startsAt: string }, timeZone: string | undefined, firstMonth: string): MonthSlots {
  const [month, setMonth] = useState(firstMonth);
  const [months, setMonths] = useState<Record<string, PublicSlots>>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (months[month]) return;
    const ctrl = new AbortController();
    setFailure(null);
    sessionsApi.slots(fileId, session.id, month, timeZone, ctrl.signal).then(
      (answer) => setMonths((m) => ({ ...m, [month]: answer })),
      (error) => {
        if (!isAbort(error)) setFailure(asFailure(error));
      },
    );
    return () => ctrl.abort();
    // `months` is read to skip a month already here; adding it would read again after every answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fileId, session.id, month, timeZone, attempt]);

  const reload = useCallback((which: string) => {
    setMonths((m) => {
      const next = { ...m };
      delete next[which];
      return next;
    });
    setMonth(which);
    setAttempt((a) => a + 1);
  }, []);
  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  const byDay = useMemo(() => {
    const current = Date.parse(session.startsAt);
    const all = slotsByVisitorDay(Object.values(months));
    for (const [day, slots] of all) {
      const left = slots.filter((s) => Date.parse(s.startsAt) !== current);
      if (left.length) all.set(day, left);
      else all.delete(day);
    }
    return all;
  }, [months, session.startsAt]);

  return { month, setMonth, loaded: !!months[month], failure: months[month] || !failure ? null : { ...failure, fields: [] }, retry, reload, byDay };
}
