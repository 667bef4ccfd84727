import { GENERIC_MESSAGES } from '../generic-messages';
import type { ErrorCatalogue } from './catalogue';

/** Signing up, in and out; codes, links and passwords. */
export const authErrors = {
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
  password_conditions: [
    400,
    'La contraseña debe tener al menos 8 caracteres y combinar dos tipos: mayúsculas, minúsculas, números o símbolos.',
  ],
  user_already_verified: [409, 'Esta cuenta ya está confirmada. Inicia sesión.'],
  user_email_already_exists: [409, 'Ya existe una cuenta con ese email.'],
  user_email_not_verified: [403, 'Confirma tu email antes de iniciar sesión. Te hemos enviado un enlace.'],
  provider_email_not_verified: [403, 'El email de tu proveedor no está verificado.'],
  provider_user_error: [400, 'No se pudo iniciar sesión con el proveedor.'],
  provider_not_configured: [404, 'Este modo de acceso no está disponible.'],
  provider_state_invalid: [400, 'El inicio de sesión con el proveedor ha caducado o no es válido. Vuelve a intentarlo.'],
  identity_already_linked: [409, 'Esa cuenta del proveedor ya está vinculada a otro usuario de Diván.'],
  identity_last_way_in: [409, 'No puedes desvincular tu único modo de acceso. Crea antes una contraseña.'],
  identity_not_found: [404, 'No hemos encontrado esa vinculación.'],
  password_already_set: [409, 'Tu cuenta ya tiene contraseña: cámbiala con «Cambiar contraseña».'],
  // Second factor (issue 32)
  second_factor_enrolment_required: [
    403,
    'Tu espacio de trabajo exige un segundo factor. Configura una app de autenticación o una llave de acceso para continuar.',
  ],
  step_up_required: [403, 'Por seguridad, confirma que eres tú con tu app de autenticación o tu llave de acceso.'],
  code_already_used: [400, 'Ese código ya se ha usado. Espera a que tu app muestre el siguiente.'],
  totp_already_enrolled: [409, 'Ya tienes una app de autenticación configurada.'],
  totp_not_enrolled: [409, 'No tienes ninguna app de autenticación configurada.'],
  totp_enrolment_not_found: [404, 'La configuración de la app ha caducado. Vuelve a empezar.'],
  second_factor_policy_own_first: [
    409,
    'Configura tu propia app de autenticación o llave de acceso antes de exigir un segundo factor a tu equipo.',
  ],
  second_factor_policy_required: [409, 'Tu espacio de trabajo exige un segundo factor: no puedes quitar tu app de autenticación.'],
  // Passkeys (issue 32)
  passkey_not_found: [404, 'No hemos encontrado esa llave de acceso.'],
  passkey_invalid: [401, 'La llave de acceso no es válida para esta cuenta. Prueba con otra o usa tu contraseña.'],
  passkey_challenge_invalid: [400, 'La solicitud de la llave de acceso ha caducado o ya se ha usado. Vuelve a intentarlo.'],
  passkey_already_registered: [409, 'Esa llave de acceso ya está registrada.'],
  passkey_counter_regression: [
    401,
    'Esta llave de acceso parece una copia de la original y la hemos rechazado. Usa otra forma de acceso y revisa tus llaves.',
  ],
  passkey_last_way_in: [409, 'No puedes eliminar tu único modo de acceso. Crea antes una contraseña o añade otra llave.'],
  passkey_policy_required: [
    409,
    'Tu espacio de trabajo exige un segundo factor: añade otra llave o una app de autenticación antes de eliminar esta.',
  ],
  passkey_limit: [409, 'Has llegado al máximo de 20 llaves de acceso. Elimina alguna antes de añadir otra.'],
  mail_send_failed: [502, 'Error al reenviar el email'],
} as const satisfies ErrorCatalogue;
