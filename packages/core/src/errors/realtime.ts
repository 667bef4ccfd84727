import type { ErrorCatalogue } from './catalogue';

/** The realtime channel: open sessions and the websocket frames it refuses. */
export const realtimeErrors = {
  // realtime
  max_sessions_reached: [429, 'Has alcanzado el máximo de sesiones abiertas: cierra Diván en otras pestañas o dispositivos.'],
  // a websocket frame refused (`{event: 'error', data: {code, message}}`, decision 0009); the socket stays open
  socket_frame_binary: [400, 'Este canal solo admite mensajes de texto en JSON, no binarios.'],
  socket_frame_too_large: [413, 'El mensaje es demasiado largo para este canal.'],
  socket_frame_invalid: [400, 'El mensaje no es válido: debe ser un objeto JSON {event, data} con los datos que pide su evento.'],
  socket_event_unknown: [400, 'Este canal no conoce ese evento.'],
  socket_not_authenticated: [401, 'Identifícate en el canal antes de enviar este evento.'],
  socket_too_many_invalid_frames: [429, 'Demasiados mensajes no válidos: el canal se ha cerrado.'],
} as const satisfies ErrorCatalogue;
