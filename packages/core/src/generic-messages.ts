/**
 * The messages a client shows on its own (no network, an answer it cannot read, a session that
 * ended), kept apart from the catalogue in errors.ts: the server sends its Spanish message with every
 * error, so the web app's first screen needs only these and not every message of every feature.
 */
export const GENERIC_MESSAGES = {
  network_error: 'Error de red. Comprueba tu conexión.',
  unexpected_error: 'Error inesperado.',
  invalid_argument: 'Los datos enviados no son válidos.',
  outdated_client: 'Hay una versión nueva de Diván. Recarga la página para continuar.',
  too_many_requests: 'Demasiados intentos. Espera un momento y vuelve a intentarlo.',
  service_unavailable: 'Servicio no disponible temporalmente.',
  session_not_found: 'Tu sesión ha caducado. Vuelve a iniciar sesión.',
} as const;
export type GenericMessageCode = keyof typeof GENERIC_MESSAGES;
export const genericMessage = (code: GenericMessageCode): string => GENERIC_MESSAGES[code];
