import type { ErrorCatalogue } from './catalogue';

/** Google Calendar (spec §2 integrations, §8 "Google: refresh token missing"). */
export const googleCalendarErrors = {
  google_refresh_token_missing: [
    400,
    'Google no ha dado acceso permanente al calendario, así que Google Calendar no se ha conectado. Vuelve a conectarlo y acepta todos los permisos.',
  ],
  google_calendar_disabled: [409, 'La conexión con Google Calendar no está disponible en este servidor.'],
  google_calendar_not_connected: [409, 'Google Calendar no está conectado.'],
  google_oauth_state_invalid: [400, 'La conexión con Google ha caducado o ya se usó. Vuelve a empezar desde Ajustes › Integraciones.'],
  google_oauth_failed: [400, 'Google no ha aceptado la conexión. Vuelve a intentarlo.'],
  google_calendar_unknown_calendar: [400, 'Ese calendario no está en tu cuenta de Google.'],
  google_calendar_unavailable: [502, 'Google Calendar no responde ahora mismo. Vuelve a intentarlo en unos minutos.'],
  google_busy_range_too_long: [400, 'Elige un intervalo de 62 días como mucho.'],
} as const satisfies ErrorCatalogue;
