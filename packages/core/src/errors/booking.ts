import type { ErrorCatalogue } from './catalogue';

/** Open booking: public services, bookings made from their links, and blocked dates. */
export const bookingErrors = {
  // open booking (spec §8 "public service" and "availability restriction")
  public_service_exists: [409, 'Ya tienes un servicio de reserva con ese título.'],
  public_service_not_found: [404, 'Este servicio de reserva no existe o ya no admite reservas.'],
  public_service_limit_reached: [409, 'Has alcanzado el número máximo de servicios de reserva.'],
  public_service_patient_data_missing: [400, 'Faltan tus datos para reservar: indica tu nombre, tu email y tu teléfono.'],
  public_service_slot_not_available: [409, 'Esa hora ya no está disponible. Elige otra.'],
  public_service_not_accepting_new_patients: [
    403,
    'Este servicio solo admite reservas de pacientes en consulta. Escribe a tu terapeuta para pedir cita.',
  ],
  public_service_patient_session_limit_reached: [409, 'Ya tienes el número máximo de reservas pendientes con este servicio.'],
  public_service_embedding_not_allowed: [403, 'Tu plan no permite insertar la reserva online en tu web.'],
  public_booking_not_found: [404, 'Esta reserva no existe o el enlace ya no es válido.'],
  public_booking_change_closed: [409, 'Ya no puedes cancelar ni cambiar esta reserva desde el enlace: escribe a tu terapeuta.'],
  availability_restriction_exists: [409, 'Ya hay un bloqueo en esa fecha.'],
  availability_restriction_not_found: [404, 'Bloqueo no encontrado.'],
  availability_restriction_limit_exceeded: [409, 'Has alcanzado el número máximo de fechas bloqueadas.'],
} as const satisfies ErrorCatalogue;

/** Sentences more precise than the catalogue's, sent with one of its codes by the call that knows more. */
export const bookingErrorMessages = {
  /** public_service_not_found, to the therapist who owns the services */
  serviceNotFound: 'Servicio de reserva no encontrado.',
  /** public_service_limit_reached */
  servicesLimit: (max: number) => `Puedes tener hasta ${max} servicios de reserva: borra o reutiliza uno que no uses.`,
  /** availability_restriction_limit_exceeded */
  blockedDaysLimit: (max: number) => `Puedes tener hasta ${max} fechas bloqueadas por delante: borra alguna que ya no haga falta.`,
} as const;
