import type { ErrorCatalogue } from './catalogue';

/** Diván's video room for a session. */
export const meetErrors = {
  // video room (meet)
  meet_link_invalid: [404, 'El enlace de la videollamada no es válido. Ábrelo desde el último email de la sesión.'],
  meet_not_open: [409, 'La sala todavía no está abierta: se abre 30 minutos antes de la sesión.'],
  meet_closed: [410, 'Esta sesión ya ha terminado y su enlace ha caducado. Si necesitas otra, escribe a tu terapeuta.'],
  meet_session_canceled: [409, 'Esta sesión se ha cancelado.'],
  meet_not_available: [409, 'Esta sesión no tiene videollamada de Diván.'],
  meet_room_full: [409, 'La sala ya está completa: en esta videollamada solo pueden estar dos personas.'],
  meet_ticket_invalid: [401, 'Tu acceso a la sala ha caducado. Vuelve a entrar.'],
} as const satisfies ErrorCatalogue;
