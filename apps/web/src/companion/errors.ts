/**
 * A failed call as the companion shows it: the server's Spanish message as sent (errors.ts in core),
 * the generic ones only when nothing readable came back (no network, a proxy's page).
 */
import { GENERIC_MESSAGES } from '@divan/core';

export type Failure = { code: string; message: string; status: number };

/** Messages of the connect link in the patient's words, whatever the server's wording for the therapist. */
const COMPANION_MESSAGES: Record<string, string> = {
  patient_connect_invitation_not_found: 'Este enlace ya no sirve: ha caducado, se ha usado ya o tu terapeuta envió otro después. Pídele que te envíe una invitación nueva.',
  patient_connect_email_mismatch: 'Esta invitación se envió a otro email. Sal de tu cuenta y entra con el email en el que recibiste la invitación.',
  patient_already_connected: 'Esta ficha ya está conectada con una cuenta de Diván.',
  patient_connect_account_not_found: 'Esta ficha no está conectada a ninguna cuenta de Diván.',
  patient_file_not_found: 'No encontramos esa ficha entre las conectadas a tu cuenta.',
};

export function messageOf(failure: Pick<Failure, 'code' | 'message'>): string {
  return COMPANION_MESSAGES[failure.code] ?? (failure.message.trim() || (GENERIC_MESSAGES as Record<string, string>)[failure.code] || GENERIC_MESSAGES.unexpected_error);
}

/** The code step's failures: the code is wrong (type it again) or can no longer work (ask another). */
export const isWrongCode = (f: Failure) => f.code === 'invalid_code' || f.code === 'invalid_argument';
export const needsNewCode = (f: Failure) => ['challenge_expired', 'challenge_not_found', 'max_attempts'].includes(f.code);

/** Any error body (or none) as a Failure: a code always, the server's message when it sent one. */
export function toFailure(status: number, body: unknown): Failure {
  const b = (body ?? {}) as { code?: unknown; message?: unknown };
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
  return { code, message: typeof b.message === 'string' ? b.message : '', status };
}

export function asFailure(error: unknown): Failure {
  if (error && typeof error === 'object' && 'code' in error && 'status' in error) return error as Failure;
  return toFailure(500, null);
}

export const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';
