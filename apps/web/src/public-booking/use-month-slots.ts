import { useSlotMonths, type MonthSlots } from '../public-kit/use-slot-months';
import { bookingApi, type ServiceIds } from './api';

/** A service's free slots, month by month, in the visitor's time zone. */
export function useMonthSlots(ids: ServiceIds, timeZone: string | undefined, firstMonth: string): MonthSlots {
  const key = `${ids.workspaceId}/${ids.therapistId}/${ids.serviceId}|${timeZone ?? ''}`;
  return useSlotMonths(key, (month, signal) => bookingApi.slots(ids, month, timeZone, signal), firstMonth);
}
