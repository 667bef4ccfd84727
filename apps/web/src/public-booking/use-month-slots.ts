import { useCallback, useEffect, useMemo, useState } from 'react';
import type { PublicSlots } from '@divan/core';
import { asFailure, bookingApi, isAbort, type ServiceIds } from './api';
import type { Failure } from './errors';
import { slotsByVisitorDay } from './slots';

/**
 * The month shown and the free slots of every month read so far (kept, so going back a month is
 * instant), grouped by the visitor's day. `reload(month)` reads a month again, as after a slot was
 * taken by someone else.
 */
export function useMonthSlots(ids: ServiceIds, timeZone: string | undefined, firstMonth: string) {
  const [month, setMonth] = useState(firstMonth);
  const [months, setMonths] = useState<Record<string, PublicSlots>>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [attempt, setAttempt] = useState(0);
  const idsKey = `${ids.workspaceId}/${ids.therapistId}/${ids.serviceId}`;

  useEffect(() => {
    if (months[month]) return;
    const ctrl = new AbortController();
    setFailure(null);
    bookingApi.slots(ids, month, timeZone, ctrl.signal).then(
      (answer) => setMonths((m) => ({ ...m, [month]: answer })),
      (error) => {
        if (!isAbort(error)) setFailure(asFailure(error));
      },
    );
    return () => ctrl.abort();
    // `months` is read to skip a month already here; adding it would read again after every answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [idsKey, month, timeZone, attempt]);

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
  const byDay = useMemo(() => slotsByVisitorDay(Object.values(months)), [months]);

  return { month, setMonth, loaded: !!months[month], failure: months[month] ? null : failure, retry, reload, byDay };
}
export type MonthSlots = ReturnType<typeof useMonthSlots>;
