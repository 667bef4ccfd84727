import type { ErrorCatalogue } from './catalogue';

/** The training library (spec §8 learning; issue 29). */
export const learningErrors = {
  learning_content_not_found: [404, 'Ese vídeo no existe o ya no está publicado.'],
  learning_content_exists: [409, 'Ya hay un vídeo con ese título.'],
  learning_bookmark_not_found: [404, 'Ese vídeo no está en tus favoritos.'],
  learning_bookmark_exists: [409, 'Ese vídeo ya está en tus favoritos.'],
  learning_purchase_not_found: [404, 'No encontramos esa compra.'],
  learning_already_purchased: [409, 'Ya compraste este vídeo: puedes verlo sin límite cuando quieras.'],
  learning_purchase_failed: [402, 'No se pudo cobrar la compra: revisa tu método de pago en Ajustes › Plan.'],
  learning_progress_not_found: [404, 'Todavía no has empezado este vídeo.'],
  learning_media_forbidden: [403, 'Este enlace del vídeo no es válido o ha caducado: vuelve a abrir el vídeo.'],
  learning_staff_only: [403, 'La herramienta de subida es solo para el equipo de Diván.'],
  learning_upload_token: [403, 'El token de subida no es correcto.'],
  learning_upload_disabled: [503, 'La subida de vídeos no está configurada en este servidor (LEARNING_UPLOAD_TOKEN).'],
  learning_upload_offset: [409, 'La subida se ha desordenado: continúa desde donde se quedó.'],
  learning_not_ready: [409, 'El vídeo todavía no tiene un archivo procesado: súbelo o espera a que termine.'],
} as const satisfies ErrorCatalogue;
