/**
 * What a failed call means on the booking pages: the Spanish sentence a visitor reads, and the step
 * it belongs to (spec §8). The server sends its Spanish message with every error (errors.ts in core) and
 * it is shown as it is; without a readable answer (no network, a proxy's page), the generic ones.
 */
import { GENERIC_MESSAGES, type FieldError } from '@divan/core';

export type Failure = { code: string; message: string; status: number; fields: FieldError[] };

/** Where a failure is shown: back at the slots (month reloaded), at the form, at the code, the code must be asked again, the whole page, or where it happened. */
export type Place = 'slots' | 'form' | 'code' | 'new-code' | 'page' | 'closed' | 'here';

const PLACES: Record<string, Place> = {
  public_service_slot_not_available: 'slots',
  public_service_patient_data_missing: 'form',
  public_service_not_accepting_new_patients: 'form',
  public_service_patient_session_limit_reached: 'form',
  invalid_argument: 'form',
  invalid_code: 'code',
  challenge_expired: 'new-code',
  challenge_not_found: 'new-code',
  max_attempts: 'new-code',
  public_service_not_found: 'page',
  public_booking_not_found: 'page',
  not_found: 'page',
  public_booking_change_closed: 'closed',
};

export function placeOf(code: string): Place {
  return PLACES[code] ?? 'here';
}

export function messageOf(failure: Pick<Failure, 'code' | 'message'>): string {
  return (failure.message.trim() || (GENERIC_MESSAGES as Record<string, string>)[failure.code] || GENERIC_MESSAGES.unexpected_error);
}

/** Any error body (or none) as a Failure: a code always, the server's message when it sent one. */
export function toFailure(status: number, body: unknown): Failure {
  const b = (body ?? {}) as { code?: unknown; message?: unknown; fields?: unknown };
  const fields = Array.isArray(b.fields) ? (b.fields as FieldError[]).filter((f) => f && typeof f.path === 'string') : [];
  const code =
    typeof b.code === 'string' && b.code
      ? b.code
      : status === 0
        ? 'network_error'
        : status === 429
          ? 'too_many_requests'
          : status === 426
            ? 'outdated_client'
            : status === 503
              ? 'service_unavailable'
              : status === 404
                ? 'not_found'
                : 'unexpected_error';
  return { code, message: typeof b.message === 'string' ? b.message : '', status, fields };
}

/** Field errors by field name ('firstName'), the first message of each. */
export function fieldMessages(fields: readonly FieldError[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    const name = f.path.split('.').pop() ?? f.path;
    out[name] ??= f.message;
  }
  return out;
}
