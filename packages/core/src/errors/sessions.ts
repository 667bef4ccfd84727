import type { ErrorCatalogue } from './catalogue';

/** Therapy sessions, their locations, reminders and series. */
export const sessionErrors = {
  // sessions (spec §8)
  therapy_session_not_found: [404, 'Sesión no disponible o borrada'],
  location_not_found: [404, 'Ubicación no encontrada.'],
  location_limit_reached: [409, 'Has alcanzado el número máximo de ubicaciones.'],
  patient_not_active: [409, 'No puedes crear sesiones para pacientes no activos'],
  session_note_exists: [409, 'Esta sesión ya tiene su nota: ábrela desde la historia clínica.'],
  session_reminders_limit: [400, 'Tu plan no permite tantos recordatorios por sesión.'],
  invalid_series: [400, 'La serie de sesiones no es válida.'],
  series_session_protected: [
    409,
    'Hay sesiones pagadas, facturadas o con nota que dejarían de estar en la serie: cancélalas antes de cambiarla.',
  ],
} as const satisfies ErrorCatalogue;

/** Sentences more precise than the catalogue's, sent with one of its codes by the call that knows more. */
export const sessionErrorMessages = {
  /** invalid_series: a session taken out of its series meanwhile */
  notInSeries: 'Esta sesión ya no forma parte de una serie',
} as const;
