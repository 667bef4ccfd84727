import type { ErrorCatalogue } from './catalogue';

/** Consent templates and the envelopes a patient or guardian signs. */
export const consentErrors = {
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
  consent_not_your_turn: [409, 'Antes tiene que firmar otra persona: te avisaremos por email cuando te toque.'],
  consent_variables_missing: [409, 'Al documento le faltan datos que se rellenan solos: complétalos o confirma que quieres enviarlo así.'],
} as const satisfies ErrorCatalogue;
