import { GENERIC_MESSAGES } from './generic-messages';

/**
 * The error catalogue of spec §8: one snake_case code, its HTTP status and its Spanish message.
 * The server answers `{code, message}`; the web app shows `message` or maps `code` to behaviour.
 */
export const errorCatalogue = {
  // generic
  network_error: [0, GENERIC_MESSAGES.network_error],
  unexpected_error: [500, GENERIC_MESSAGES.unexpected_error],
  internal_server_error: [500, 'Error interno del servidor. Inténtalo de nuevo más tarde.'],
  outdated_client: [426, GENERIC_MESSAGES.outdated_client],
  invalid_argument: [400, GENERIC_MESSAGES.invalid_argument],
  not_found: [404, 'No encontrado.'],
  too_many_requests: [429, GENERIC_MESSAGES.too_many_requests],
  file_too_large: [413, 'El archivo es demasiado grande.'],
  invalid_type: [415, 'Tipo de archivo no válido.'],
  too_many_files: [400, 'Demasiados archivos.'],
  unexpected_file: [400, 'Archivo inesperado.'],
  service_unavailable: [503, GENERIC_MESSAGES.service_unavailable],
  // auth
  invalid_access_token: [401, 'Tu sesión ha caducado. Vuelve a iniciar sesión.'],
  session_not_found: [401, GENERIC_MESSAGES.session_not_found],
  challenge_not_found: [404, 'El código o el enlace no es válido o ya se ha usado.'],
  challenge_expired: [410, 'El código o el enlace ha caducado. Solicita uno nuevo.'],
  recent_challenge: [429, 'Acabamos de enviarte un email. Espera un minuto antes de pedir otro.'],
  max_attempts: [429, 'Has superado el número máximo de intentos. Solicita un código nuevo.'],
  invalid_code: [400, 'El código no es correcto.'],
  user_not_found: [404, 'No existe ninguna cuenta con ese email.'],
  invalid_password: [401, 'La contraseña no es correcta.'],
  password_equal: [400, 'La nueva contraseña debe ser distinta de la actual.'],
  no_password: [400, 'Esta cuenta no tiene contraseña. Inicia sesión con tu proveedor.'],
  password_conditions: [400, 'La contraseña debe tener al menos 8 caracteres y combinar dos tipos: mayúsculas, minúsculas, números o símbolos.'],
  user_already_verified: [409, 'Esta cuenta ya está confirmada. Inicia sesión.'],
  user_email_already_exists: [409, 'Ya existe una cuenta con ese email.'],
  user_email_not_verified: [403, 'Confirma tu email antes de iniciar sesión. Te hemos enviado un enlace.'],
  provider_email_not_verified: [403, 'El email de tu proveedor no está verificado.'],
  provider_user_error: [400, 'No se pudo iniciar sesión con el proveedor.'],
  mail_send_failed: [502, 'Error al reenviar el email'],
  // workspaces (spec §8)
  workspace_already_exists: [409, 'Ya tienes un espacio de trabajo con ese nombre.'],
  workspace_not_found: [404, 'Espacio de trabajo no encontrado.'],
  workspace_limit_reached: [409, 'Has alcanzado el número máximo de espacios de trabajo.'],
  roles_manager_not_user: [409, 'Los roles de este espacio los gestiona Diván y no se pueden editar.'],
  roles_manager_cannot_be_updated: [409, 'La gestión propia de roles ya está desactivada y no se puede volver a activar.'],
  workspace_not_owner: [403, 'Solo la persona propietaria del espacio puede hacer esto.'],
  seat_not_found: [404, 'Miembro no encontrado.'],
  seat_needs_role: [400, 'Cada miembro necesita al menos un rol.'],
  seat_limit_reached: [409, 'Tu plan no permite más miembros en este espacio.'],
  invitation_not_found: [404, 'Invitación no encontrada o cancelada.'],
  invitation_already_sent: [409, 'Ya hay una invitación pendiente para ese email.'],
  invitation_already_accepted: [409, 'Esta invitación ya se ha aceptado.'],
  invitation_email_mismatch: [403, 'Esta invitación es para otro email. Inicia sesión con el email invitado.'],
  member_already_exists: [409, 'Esa persona ya es miembro del espacio.'],
  owner_must_be_admin: [409, 'La persona propietaria debe conservar el rol de administrador.'],
  owner_cannot_be_removed: [409, 'No se puede quitar a la persona propietaria del espacio.'],
  duplicated_roles: [400, 'Hay roles repetidos.'],
  // roles (spec §8)
  access_denied: [403, 'No tienes permiso para hacer esto.'],
  permission_exists: [409, 'Ese permiso ya está en el rol.'],
  permission_missing: [400, 'El rol necesita al menos un permiso.'],
  invalid_permission: [400, 'Permiso inválido.'],
  invalid_action_combination: [400, 'Esa combinación de acción y sección no es válida.'],
  duplicate_permissions: [400, 'Hay permisos repetidos.'],
  role_exists: [409, 'Ya existe un rol con ese nombre.'],
  role_not_found: [404, 'Rol no encontrado.'],
  role_has_seats: [409, 'Este rol está asignado a miembros o invitaciones y no se puede eliminar.'],
  role_limit_exceeded: [409, 'Has alcanzado el número máximo de roles.'],
  cannot_update_admin: [409, 'El rol de administrador no se puede modificar.'],
  // patients (spec §8)
  patient_already_exists: [409, 'Ya existe un paciente con ese email o DNI en este espacio.'],
  patient_not_found: [404, 'Paciente no encontrado.'],
  patient_limit_reached: [409, 'Tu plan permite 30 pacientes activos por terapeuta. Mejora tu plan para añadir más.'],
  patient_blocked: [409, 'Este paciente está bloqueado por el periodo legal de conservación.'],
  patient_not_assigned: [403, 'Este paciente no está asignado a ti.'],
  therapist_not_member: [400, 'La persona elegida no es miembro de este espacio.'],
  treatment_end_required: [400, 'Para finalizar el tratamiento indica la fecha de fin y el motivo.'],
  history_not_found: [404, 'Entrada de historia clínica no encontrada.'],
  document_not_found: [404, 'Documento no encontrado.'],
  task_not_found: [404, 'Tarea no encontrada.'],
  document_too_large: [413, 'El archivo supera el tamaño máximo de {limit} MB.'],
  invalid_import_file: [400, 'El archivo no es un Excel válido o no se puede leer.'],
  invalid_docx_file: [400, 'El archivo no es un documento Word (.docx) válido o no se puede leer.'],
  import_not_found: [404, 'La importación ha caducado. Vuelve a subir el archivo.'],
  import_already_started: [409, 'Esta importación ya se ha iniciado.'],
  import_not_started: [409, 'Elige las columnas y confirma la importación para empezarla.'],
  // sessions (spec §8)
  therapy_session_not_found: [404, 'Sesión no disponible o borrada'],
  location_not_found: [404, 'Ubicación no encontrada.'],
  location_limit_reached: [409, 'Has alcanzado el número máximo de ubicaciones.'],
  patient_not_active: [409, 'No puedes crear sesiones para pacientes no activos'],
  session_note_exists: [409, 'Esta sesión ya tiene su nota: ábrela desde la historia clínica.'],
  session_reminders_limit: [400, 'Tu plan no permite tantos recordatorios por sesión.'],
  invalid_series: [400, 'La serie de sesiones no es válida.'],
  series_session_protected: [409, 'Hay sesiones pagadas, facturadas o con nota que dejarían de estar en la serie: cancélalas antes de cambiarla.'],
  // video room (meet)
  meet_link_invalid: [404, 'El enlace de la videollamada no es válido. Ábrelo desde el último email de la sesión.'],
  meet_not_open: [409, 'La sala todavía no está abierta: se abre 30 minutos antes de la sesión.'],
  meet_closed: [410, 'Esta sesión ya ha terminado y su enlace ha caducado. Si necesitas otra, escribe a tu terapeuta.'],
  meet_session_canceled: [409, 'Esta sesión se ha cancelado.'],
  meet_not_available: [409, 'Esta sesión no tiene videollamada de Diván.'],
  meet_room_full: [409, 'La sala ya está completa: en esta videollamada solo pueden estar dos personas.'],
  meet_ticket_invalid: [401, 'Tu acceso a la sala ha caducado. Vuelve a entrar.'],
  // invoices (spec §8: exists, not found, not paid, session not found)
  invoice_not_found: [404, 'Factura no encontrada.'],
  invoice_exists: [409, 'Ya existe una factura con ese número.'],
  invoice_not_paid: [409, 'La factura no está pagada.'],
  invoice_session_not_found: [404, 'Alguna de las sesiones no existe, no es de este paciente o no está completada.'],
  invoice_session_invoiced: [409, 'Alguna de las sesiones ya está facturada.'],
  invoice_issued: [409, 'Una factura emitida no se puede modificar ni borrar: corrígela con una factura rectificativa.'],
  invoice_not_issued: [409, 'Solo se puede rectificar o cobrar una factura emitida.'],
  invoice_empty: [400, 'La factura necesita al menos una línea.'],
  invoice_buyer_missing: [400, 'Indica a quién se factura: el paciente con sus datos de facturación o un tercero.'],
  invoice_seller_incomplete: [409, 'Completa los datos de facturación del emisor (nombre y NIF) antes de emitir.'],
  invoice_already_paid: [409, 'La factura ya está pagada.'],
  invoice_rectified: [409, 'Esta factura ya se anuló con una rectificativa por sustitución.'],
  invoice_batch_not_allowed: [403, 'Tu plan no permite la creación de lotes de facturas'],
  invoice_auto_not_allowed: [403, 'Tu plan no permite la creación de facturas automáticas'],
  invoice_batch_not_found: [404, 'Lote de facturas no encontrado.'],
  invoice_batch_empty: [400, 'No hay sesiones realizadas sin facturar en ese periodo.'],
  invoice_total_negative: [400, 'El total de una factura ordinaria no puede ser negativo: usa una factura rectificativa.'],
  invoice_void_draft: [409, 'Un borrador no se anula: bórralo. Solo se anula una factura emitida.'],
  invoice_already_voided: [409, 'Esta factura ya está anulada.'],
  invoice_void_rectified: [409, 'Esta factura tiene facturas rectificativas: anula antes las rectificativas o corrígela con otra.'],
  // payments (spec §8 therapist: payment account already connected or not created, customer not created; §5 the six reasons a charge is disabled)
  payment_account_already_connected: [409, 'La cuenta de cobros con Stripe ya está conectada.'],
  payment_account_not_created: [409, 'Todavía no has conectado una cuenta de cobros con Stripe.'],
  payment_account_incomplete: [409, 'Completa antes los datos de tu cuenta en Stripe: el panel se abre cuando la cuenta está dada de alta.'],
  customer_not_created: [409, 'Este paciente todavía no ha guardado ninguna tarjeta.'],
  charge_amount_too_low: [409, 'Solo se pueden cobrar con tarjeta importes superiores a 0,50 €.'],
  charge_no_patient: [409, 'La factura no tiene paciente: no hay tarjeta que cobrar.'],
  charge_not_connected: [409, 'Conecta tu cuenta de cobros con Stripe para cobrar con tarjeta.'],
  charge_no_payment_method: [409, 'El paciente no tiene tarjeta guardada o tiene los cobros automáticos desactivados.'],
  charge_workspace_invoice: [409, 'Las facturas emitidas por el espacio no se cobran con la tarjeta guardada: envía un enlace de pago.'],
  charge_not_chargeable: [409, 'Esta factura no se puede cobrar: solo se cobran facturas emitidas y pendientes de pago.'],
  charge_in_progress: [409, 'Ya hay un cobro en curso de esta factura: espera a que termine.'],
  card_declined: [402, 'El banco ha rechazado la tarjeta. Pide al paciente otra tarjeta o envíale un enlace de pago.'],
  payment_provider_error: [502, 'Stripe no ha respondido como se esperaba. Inténtalo de nuevo en unos minutos.'],
  refund_not_allowed: [409, 'Solo se puede devolver el importe de una factura pagada con tarjeta a través de Diván.'],
  refund_amount_invalid: [400, 'El importe a devolver debe ser mayor que 0 y no superar lo que queda por devolver.'],
  payment_link_invalid: [404, 'El enlace no es válido o ha caducado. Pide uno nuevo a tu terapeuta.'],
  payment_link_used: [409, 'Este enlace ya se ha usado: la factura ya está pagada.'],
  pack_not_found: [404, 'Bono no encontrado.'],
  pack_nothing_to_refund: [409, 'Este bono no tiene sesiones sin usar que devolver.'],
  pack_expiry_past: [400, 'La fecha de caducidad del bono no puede ser anterior a hoy.'],
  webhook_signature_invalid: [400, 'Firma del webhook no válida.'],
  // consents (spec §5 and §8 "consents"): templates, then the envelope a patient or guardian signs
  consent_not_found: [404, 'Consentimiento no encontrado.'],
  consent_invalid_version: [409, 'Esa versión de la plantilla no es válida: no existe o ya no es la vigente. Vuelve a abrir la plantilla.'],
  consent_dataset_required: [400, 'Debes pedir al menos un dato del paciente, tutor o segundo tutor'],
  consent_therapist_signature_required: [400, 'Esta plantilla la firma también el terapeuta: falta su firma.'],
  consent_guardian_required_for_second_guardian: [400, 'No puede haber segundo tutor sin un primer tutor.'],
  consent_invalid_signature: [400, 'La firma no es válida. Vuelve a dibujarla.'],
  consent_already_signed: [409, 'Este consentimiento ya está firmado y no se puede volver a firmar.'],
  consent_patient_data_required: [400, 'Faltan datos del paciente que pide el documento.'],
  consent_guardian_data_required: [400, 'Faltan datos del tutor que pide el documento.'],
  consent_second_guardian_data_required: [400, 'Faltan datos del segundo tutor que pide el documento.'],
  consent_invalid_sections: [400, 'Las secciones enviadas no coinciden con las del documento. Recarga la página y vuelve a intentarlo.'],
  consent_checked_section_without_consent_box: [400, 'Has marcado una sección que no tiene casilla de consentimiento.'],
  consent_invalid_checkbox_section: [400, 'Alguna casilla marcada no corresponde a ninguna sección del documento.'],
  consent_required_checkbox_unchecked: [400, 'Marca las casillas obligatorias para poder firmar.'],
  // VERI*FACTU sending: why a record is still pending (kept on the record, shown on the invoice)
  verifactu_network: [503, 'No se pudo conectar con la AEAT: se volverá a intentar.'],
  verifactu_http: [503, 'La AEAT no atendió el envío: se volverá a intentar.'],
  verifactu_fault: [502, 'La AEAT devolvió un error en el envío: se volverá a intentar.'],
  verifactu_malformed: [502, 'La respuesta de la AEAT no se pudo leer: se volverá a intentar.'],
  verifactu_no_answer: [502, 'La AEAT no respondió sobre este registro: se volverá a enviar.'],
  // realtime
  max_sessions_reached: [429, 'Max sessions reached'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof errorCatalogue;

export type ApiErrorBody = { code: ErrorCode | (string & {}); message: string; fields?: FieldError[] };
export type FieldError = { path: string; message: string };

export function errorStatus(code: ErrorCode): number {
  return errorCatalogue[code][0];
}

export function errorMessage(code: string): string {
  return (errorCatalogue as Record<string, readonly [number, string]>)[code]?.[1] ?? errorCatalogue.unexpected_error[1];
}

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && code in errorCatalogue;
}
