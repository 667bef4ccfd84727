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

/** Sentences more precise than the catalogue's, sent with one of its codes by the call that knows more. */
export const consentErrorMessages = {
  // consent_not_found
  templateNotFound: 'Plantilla de consentimiento no encontrada.',
  readyMadeNotFound: 'Esa plantilla predefinida no existe.',
  signingLinkInvalid: 'Este enlace de firma no es válido o ha caducado. Pide uno nuevo a tu terapeuta.',
  revoked: 'Este consentimiento se ha anulado y ya no se puede firmar. Si tienes dudas, escribe a tu terapeuta.',
  pdfUnsigned: 'Este consentimiento aún no tiene documento firmado: faltan firmas.',
  pdfSealing: 'El documento firmado se está sellando. Vuelve a intentarlo en unos segundos.',
  pdfDeleted: 'El documento firmado se ha borrado de los documentos del paciente.',
  // consent_invalid_version
  noSuchVersion: (version: number, current: number) => `La plantilla no tiene la versión ${version}: va por la versión ${current}.`,
  savedMeanwhile: (current: number) =>
    `Otra persona ha guardado esta plantilla mientras la editabas (ahora va por la versión ${current}). Vuelve a abrirla para no perder sus cambios.`,
  /** consent_variables_missing: each gap's own sentence, then what to do */
  variablesMissing: (gaps: string[]) => `${gaps.join('. ')}. Complétalo o confirma que quieres enviarlo así.`,
  /** invalid_argument: the minor's exception without guardians signing */
  minorExceptionWithoutGuardians:
    'La excepción del art. 156 del Código Civil solo se aplica cuando firman los tutores de un menor de 16 años.',
  /** consent_patient_data_required and the guardians' ones: `who` is «del paciente», «del tutor»… */
  signerContactMissing: (who: string) => `Faltan el nombre o el email ${who} para enviarle el enlace de firma.`,
  // consent_therapist_signature_required
  therapistMustSign: 'Esta plantilla la firma también el terapeuta: firma para enviarla.',
  therapistSignatureOfAnother:
    'Esta plantilla la firma también el terapeuta, y la firma guardada es de otra persona: firma tú para enviarla.',
  /** consent_already_signed, when revoking */
  signedNotRevocable:
    'Este consentimiento ya está firmado: no se puede anular. Si el paciente retira su consentimiento, anótalo en su historia.',
  /** consent_not_your_turn: `ahead` names who signs first («Ana (tutor)») */
  notYourTurn: (ahead: string[]) => `Antes tiene que firmar ${ahead.join(' y ')}: te avisaremos por email cuando te toque.`,
} as const;
