import type { ErrorCatalogue } from './catalogue';

/** Diván's own subscription (spec §8 therapist: customer not created, already has plan, plan not found, invalid, already cancelled, already subscribed). */
export const billingErrors = {
  therapist_customer_not_created: [409, 'Este espacio todavía no tiene datos de pago en Diván: contrata antes un plan.'],
  therapist_already_has_plan: [409, 'Este espacio ya tiene ese plan.'],
  therapist_plan_not_found: [404, 'Ese plan no existe.'],
  therapist_plan_invalid: [400, 'El plan Team se contrata hablando con nosotros: usa «Consultar precio».'],
  therapist_already_cancelled: [409, 'La renovación de este plan ya está desactivada.'],
  therapist_already_subscribed: [409, 'Este espacio ya tiene un plan contratado: cámbialo desde Ajustes › Plan.'],
  billing_unavailable: [503, 'Los pagos de Diván no están disponibles en este servidor todavía.'],
  billing_no_scheduled_change: [409, 'No hay ningún cambio de plan pendiente para la renovación.'],
  billing_checkout_not_found: [404, 'No encontramos ese pago. Vuelve a Planes e inténtalo de nuevo.'],
  billing_details_missing: [409, 'Antes de contratar, completa los datos de facturación: a ese nombre y NIF irán las facturas de Diván.'],
  billing_invoice_not_found: [404, 'No encontramos esa factura de Diván.'],
  referral_code_not_found: [404, 'Ese código de invitación no existe: revisa que esté bien escrito.'],
  referral_self: [409, 'Ese código es tuyo: compártelo con un colega para que lo use al registrarse.'],
  referral_not_eligible: [409, 'El mes gratis es para quien nunca ha tenido un plan de Diván, y este espacio ya tuvo uno.'],
  gift_not_found: [404, 'Ese código de regalo no existe: revisa el enlace o el código.'],
  gift_redeemed: [409, 'Este regalo ya se canjeó: cada código vale una sola vez.'],
  gift_expired: [410, 'Este regalo ha caducado: se podía canjear durante un año desde su compra.'],
  gift_workspace_subscribed: [
    409,
    'El último cobro del plan de este espacio está pendiente: cambia la tarjeta en Ajustes › Plan y vuelve a canjear el regalo cuando se haya cobrado.',
  ],
  gift_checkout_not_found: [404, 'No encontramos esa compra de regalo. Vuelve a Regalar Diván e inténtalo de nuevo.'],
  referral_already_used: [409, 'Ya usaste un código de invitación: solo se puede usar uno por cuenta.'],
} as const satisfies ErrorCatalogue;
