import type { ErrorCatalogue } from './catalogue';

/** Outcome measures (issue 32): sending, answering by link, administering in session, risk flags. */
export const measureErrors = {
  measure_not_found: [404, 'Cuestionario no encontrado.'],
  measure_link_invalid: [404, 'Este enlace no existe o ya no es válido. Pide a tu terapeuta que te envíe otro.'],
  measure_link_expired: [410, 'Este enlace ha caducado. Pide a tu terapeuta que te envíe el cuestionario de nuevo.'],
  measure_already_answered: [409, 'Este cuestionario ya está respondido. Gracias.'],
  measure_incomplete: [400, 'Responde todas las preguntas antes de enviar el cuestionario.'],
  measure_not_pending: [409, 'Este cuestionario ya no está pendiente.'],
  measure_patient_no_email: [400, 'El paciente no tiene email: añádelo en su ficha o administra el cuestionario en sesión.'],
  measure_schedule_not_found: [404, 'Programación de cuestionario no encontrada.'],
  measure_schedule_exists: [409, 'Este paciente ya tiene una programación de este cuestionario: edítala o detenla.'],
  measure_schedule_stopped: [409, 'Esta programación está detenida: crea una nueva.'],
} as const satisfies ErrorCatalogue;
