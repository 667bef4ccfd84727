/**
 * A failed call as the companion shows it: the server's Spanish message as sent (errors.ts in core),
 * the generic ones only when nothing readable came back (no network, a proxy's page).
 */
import { serverMessage, type Failure } from '../public-kit/failure';

export { asFailure, isAbort, toFailure, type Failure } from '../public-kit/failure';

/** Messages of the connect link in the patient's words, whatever the server's wording for the therapist. */
const COMPANION_MESSAGES: Record<string, string> = {
  patient_connect_invitation_not_found:
    'Este enlace ya no sirve: ha caducado, se ha usado ya o tu terapeuta envió otro después. Pídele que te envíe una invitación nueva.',
  patient_connect_email_mismatch:
    'Esta invitación se envió a otro email. Sal de tu cuenta y entra con el email en el que recibiste la invitación.',
  patient_already_connected: 'Esta ficha ya está conectada con una cuenta de Diván.',
  patient_connect_account_not_found: 'Esta ficha no está conectada a ninguna cuenta de Diván.',
  patient_file_not_found: 'No encontramos esa ficha entre las conectadas a tu cuenta.',
};

export function messageOf(failure: Pick<Failure, 'code' | 'message'>): string {
  return COMPANION_MESSAGES[failure.code] ?? serverMessage(failure);
}

/** The code step's failures: the code is wrong (type it again) or can no longer work (ask another). */
export const isWrongCode = (f: Failure) => f.code === 'invalid_code' || f.code === 'invalid_argument';
export const needsNewCode = (f: Failure) => ['challenge_expired', 'challenge_not_found', 'max_attempts'].includes(f.code);
