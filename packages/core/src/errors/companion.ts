import type { ErrorCatalogue } from './catalogue';

/** The patient's companion app: their sessions, consents, invoices and card. */
export const companionErrors = {
  companion_session_not_changeable: [409, 'Esta sesión la reservó tu terapeuta: para cancelarla o cambiarla, escríbele.'],
  companion_session_change_closed: [
    409,
    'Ya no puedes cancelar ni cambiar esta sesión desde aquí: queda menos del aviso mínimo. Escribe a tu terapeuta.',
  ],
  companion_consent_not_signable: [409, 'Este consentimiento no está pendiente de tu firma.'],
  companion_consent_not_your_turn: [409, 'Antes tiene que firmar otra persona: te avisaremos por email cuando te toque.'],
  companion_consent_expired: [409, 'El plazo para firmar este consentimiento ha terminado. Pide a tu terapeuta que te lo envíe de nuevo.'],
  companion_consent_not_completed: [409, 'El documento firmado estará disponible cuando hayan firmado todas las personas.'],
  companion_invoice_paid: [409, 'Esta factura ya está pagada.'],
  companion_invoice_not_payable: [
    409,
    'Esta factura no se puede pagar con tarjeta desde aquí. Escribe a tu terapeuta para pagarla de otra forma.',
  ],
  companion_card_not_available: [409, 'Tu terapeuta no cobra con tarjeta: no hace falta que guardes una.'],
  companion_card_not_saved: [409, 'Todavía no has guardado ninguna tarjeta.'],
} as const satisfies ErrorCatalogue;

/** Sentences more precise than the catalogue's, sent with one of its codes by the call that knows more. */
export const companionErrorMessages = {
  /** companion_consent_not_completed: signed, its document still being prepared */
  signedPdfPending: 'El documento firmado se está preparando. Vuelve a intentarlo en unos segundos.',
  /** consent_not_found: the signed document is gone */
  signedPdfGone: 'El documento firmado ya no está disponible. Pídeselo a tu terapeuta.',
} as const;
