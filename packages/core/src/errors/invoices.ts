import type { ErrorCatalogue } from './catalogue';

/** Invoices, their batches and their VERI*FACTU sending. */
export const invoiceErrors = {
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
  invoice_batch_nothing_issuable: [409, 'No se puede emitir ninguna factura de este lote: revisa los avisos de la previsualización.'],
  invoice_total_negative: [400, 'El total de una factura ordinaria no puede ser negativo: usa una factura rectificativa.'],
  invoice_void_draft: [409, 'Un borrador no se anula: bórralo. Solo se anula una factura emitida.'],
  invoice_already_voided: [409, 'Esta factura ya está anulada.'],
  invoice_void_rectified: [409, 'Esta factura tiene facturas rectificativas: anula antes las rectificativas o corrígela con otra.'],
  // VERI*FACTU sending: why a record is still pending (kept on the record, shown on the invoice)
  verifactu_network: [503, 'No se pudo conectar con la AEAT: se volverá a intentar.'],
  verifactu_http: [503, 'La AEAT no atendió el envío: se volverá a intentar.'],
  verifactu_fault: [502, 'La AEAT devolvió un error en el envío: se volverá a intentar.'],
  verifactu_malformed: [502, 'La respuesta de la AEAT no se pudo leer: se volverá a intentar.'],
  verifactu_no_answer: [502, 'La AEAT no respondió sobre este registro: se volverá a enviar.'],
} as const satisfies ErrorCatalogue;

/** Sentences more precise than the catalogue's, sent with one of its codes by the call that knows more. */
export const invoiceErrorMessages = {
  /** invoice_not_issued, when sending by email */
  sendNotIssued: 'Solo se puede enviar una factura emitida.',
} as const;
