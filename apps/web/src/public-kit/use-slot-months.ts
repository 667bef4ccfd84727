import { useCallback, useEffect, useMemo, useState } from 'react';
import type { PublicSlots } from '@divan/core';
import { asFailure, isAbort, type Failure } from './failure';
import { slotsByVisitorDay } from './slots';

/**
 * The month shown and the free slots of every month read so far (kept, so going back a month is
 * instant), grouped by the visitor's day. `reload(month)` reads a month again, as after a slot was
 * taken by someone else. `key` names what `read` reads (a new key reads again); `except`: a start left out
 * (the session being moved, whose own time is free to the server).
 */
export function useSlotMonths(
  key: string,
  read: (month: string, signal: AbortSignal) => Promise<PublicSlots>,
  firstMonth: string,
  except?: string,
) {
  const [month, setMonth] = useState(firstMonth);
  const [months, setMonths] = useState<Record<string, PublicSlots>>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (months[month]) return;
    const ctrl = new AbortController();
    setFailure(null);
    read(month, ctrl.signal).then(
      (answer) => setMonths((m) => ({ ...m, [month]: answer })),
      (error) => {
        if (!isAbort(error)) setFailure(asFailure(error));
      },
    );
    return () => ctrl.abort();
    // `months` is read to skip a month already here; adding it would read again after every answer. `read` is new each render; `key` names it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, month, attempt]);

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
    const all = slotsByVisitorDay(Object.values(months));
    if (!except) return all;
    const skipped = Date.parse(except);
    for (const [day, slots] of all) {
      const left = slots.filter((s) => Date.parse(s.startsAt) !== skipped);
      if (left.length) all.set(day, left);
      else all.delete(day);
    }
    return all;
  }, [months, except]);

  return { month, setMonth, loaded: !!months[month], failure: months[month] ? null : failure, retry, reload, byDay };
}
export type MonthSlots = ReturnType<typeof useSlotMonths>;
