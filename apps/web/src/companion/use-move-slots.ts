import { useSlotMonths, type MonthSlots } from '../public-kit/use-slot-months';
import { sessionsApi } from './api';

/**
 * The free slots to move a session to, month by month, by the patient's day, in the shape the booking
 * pages' slot picker reads (their hook, reading the session's own route). The session's own time is left out.
 */
export function useMoveSlots(
  fileId: string,
  session: { id: string; startsAt: string },
  timeZone: string | undefined,
  firstMonth: string,
): MonthSlots {
  const key = `${fileId}/${session.id}|${timeZone ?? ''}`;
  return useSlotMonths(
    key,
    (month, signal) => sessionsApi.slots(fileId, session.id, month, timeZone, signal),
    firstMonth,
    session.startsAt,
  );
}
