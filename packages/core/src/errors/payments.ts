import type { ErrorCatalogue } from './catalogue';

/** Card payments with Stripe, refunds, payment links and session packs. */
export const paymentErrors = {
  // payments (spec §8 therapist: payment account already connected or not created, customer not created; §5 the six reasons a charge is disabled)
  payment_account_already_connected: [409, 'La cuenta de cobros con Stripe ya está conectada.'],
  payment_account_not_created: [409, 'Todavía no has conectado una cuenta de cobros con Stripe.'],
  payment_account_incomplete: [
    409,
    'Completa antes los datos de tu cuenta en Stripe: el panel se abre cuando la cuenta está dada de alta.',
  ],
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
} as const satisfies ErrorCatalogue;
