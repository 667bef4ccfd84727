/**
 * The public booking calls (packages/core/src/booking/public-booking.contracts.ts), with plain fetch.
 * Each throws a `Failure` ({code, message, status, fields}) on any error, network included.
 */
import {
  APP_VERSION,
  type BookingConfirmResult,
  type BookingHold,
  type CreateBookingHoldBody,
  type PublicBooking,
  type PublicServicePage,
  type PublicSlots,
  type PublicTherapistPage,
  type PublicWorkspaceIndex,
} from '@divan/core';
import { toFailure } from './errors';

const API = '/api/v1/public';
const seg = encodeURIComponent;

async function call<T>(path: string, init: { method?: 'GET' | 'POST'; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Client-Version': APP_VERSION };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(API + path, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
    });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw toFailure(0, null);
  }
  const body: unknown = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) throw toFailure(res.status, body);
  return body as T;
}

export { asFailure, isAbort } from '../public-kit/failure';

export type ServiceIds = { workspaceId: string; therapistId: string; serviceId: string };
const servicePath = (s: ServiceIds) => `/reservations/${seg(s.workspaceId)}/${seg(s.therapistId)}/${seg(s.serviceId)}`;

export const bookingApi = {
  workspace: (workspaceId: string, signal?: AbortSignal) => call<PublicWorkspaceIndex>(`/reservations/${seg(workspaceId)}`, { signal }),
  therapist: (workspaceId: string, therapistId: string, signal?: AbortSignal) =>
    call<PublicTherapistPage>(`/reservations/${seg(workspaceId)}/${seg(therapistId)}`, { signal }),
  service: (ids: ServiceIds, signal?: AbortSignal) => call<PublicServicePage>(servicePath(ids), { signal }),
  slots: (ids: ServiceIds, month: string, timeZone: string | undefined, signal?: AbortSignal) =>
    call<PublicSlots>(`${servicePath(ids)}/slots?${new URLSearchParams({ month, ...(timeZone ? { timeZone } : {}) })}`, { signal }),
  hold: (ids: ServiceIds, body: CreateBookingHoldBody) => call<BookingHold>(`${servicePath(ids)}/holds`, { method: 'POST', body }),
  confirm: (holdId: string, code: string) =>
    call<BookingConfirmResult>(`/booking-holds/${seg(holdId)}/confirm`, { method: 'POST', body: { code } }),
  booking: (token: string, signal?: AbortSignal) => call<{ booking: PublicBooking }>(`/bookings/${seg(token)}`, { signal }),
  cancel: (token: string) => call<{ booking: PublicBooking }>(`/bookings/${seg(token)}/cancel`, { method: 'POST', body: {} }),
  move: (token: string, startsAt: string) =>
    call<{ booking: PublicBooking }>(`/bookings/${seg(token)}/move`, { method: 'POST', body: { startsAt } }),
};
