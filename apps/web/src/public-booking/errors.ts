/**
 * What a failed call means on the booking pages: the Spanish sentence a visitor reads, and the step
 * it belongs to (spec §8). The server sends its Spanish message with every error (errors.ts in core) and
 * it is shown as it is; without a readable answer (no network, a proxy's page), the generic ones.
 */
import { retryMayHelp, type FieldError } from '@divan/core';
import { serverMessage, type Failure } from '../public-kit/failure';

export { toFailure, type Failure } from '../public-kit/failure';

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
  return serverMessage(failure);
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

/**
 * The manage link's read failing. A link that does not open a booking (a garbage or unknown token: 400 or
 * 404) says so in plain words and where to go; asking again would answer the same, so no «Reintentar».
 */
export function manageLoadFailure(failure: Failure): { title: string; message: string; retry: boolean } {
  if (!retryMayHelp(failure.status))
    return {
      title: 'Este enlace no es válido o ha caducado',
      message:
        'Abre el enlace completo del último email de tu reserva. Si necesitas cambiarla o cancelarla y no lo encuentras, escribe a tu consulta o reserva de nuevo desde su página.',
      retry: false,
    };
  return { title: 'No se ha podido cargar tu reserva', message: messageOf(failure), retry: true };
}
