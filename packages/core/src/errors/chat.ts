import type { ErrorCatalogue } from './catalogue';

/** Chat between a therapist and a patient. */
export const chatErrors = {
  // chat (spec §8)
  chat_message_not_found: [404, 'Mensaje no encontrado.'],
  chat_message_not_sent_by_peer: [400, 'Solo puedes marcar como leídos los mensajes que te han enviado.'],
} as const satisfies ErrorCatalogue;
