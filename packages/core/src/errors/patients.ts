import type { ErrorCatalogue } from './catalogue';

/** Patients and their file: connect, clinical history, documents, tasks and the import of patients. */
export const patientErrors = {
  // patients (spec §8)
  patient_already_exists: [409, 'Ya existe un paciente con ese email o DNI en este espacio.'],
  patient_not_found: [404, 'Paciente no encontrado.'],
  patient_limit_reached: [409, 'Tu plan permite 30 pacientes activos por terapeuta. Mejora tu plan para añadir más.'],
  patient_blocked: [409, 'Este paciente está bloqueado por el periodo legal de conservación.'],
  patient_not_assigned: [403, 'Este paciente no está asignado a ti.'],
  // patients' connect (spec §2 "connect", §8): the patient's own account linked to their file
  patient_connect_account_not_found: [404, 'Este paciente no está conectado a ninguna cuenta de Diván.'],
  patient_already_connected: [409, 'Este paciente ya está conectado con su cuenta de Diván.'],
  patient_connect_invitation_not_found: [
    404,
    'La invitación no existe, ha caducado o ya se ha usado. Pide a tu terapeuta que te envíe otra.',
  ],
  patient_connect_email_mismatch: [403, 'La invitación se envió a otro email. Inicia sesión con la cuenta de ese email.'],
  patient_file_not_found: [404, 'No encontramos esa ficha entre las conectadas a tu cuenta.'],
  therapist_not_member: [400, 'La persona elegida no es miembro de este espacio.'],
  treatment_end_required: [400, 'Para finalizar el tratamiento indica la fecha de fin y el motivo.'],
  history_not_found: [404, 'Entrada de historia clínica no encontrada.'],
  // the patient's documents and tasks, and the import of patients from a spreadsheet
  document_not_found: [404, 'Documento no encontrado.'],
  task_not_found: [404, 'Tarea no encontrada.'],
  document_too_large: [413, 'El archivo supera el tamaño máximo de {limit} MB.'],
  invalid_import_file: [400, 'El archivo no es un Excel válido o no se puede leer.'],
  invalid_docx_file: [400, 'El archivo no es un documento Word (.docx) válido o no se puede leer.'],
  import_not_found: [404, 'La importación ha caducado. Vuelve a subir el archivo.'],
  import_already_started: [409, 'Esta importación ya se ha iniciado.'],
  import_not_started: [409, 'Elige las columnas y confirma la importación para empezarla.'],
} as const satisfies ErrorCatalogue;

/** Sentences more precise than the catalogue's, sent with one of its codes by the call that knows more. */
export const patientErrorMessages = {
  /** invalid_argument: a treatment that ends before it starts */
  treatmentEndBeforeStart: 'La fecha de fin debe ser posterior al inicio',
  /** invalid_type: a patient's document of a type not kept */
  documentType: 'Tipo de archivo no válido. Se admiten PDF, imágenes (PNG, JPEG, WebP, GIF), Word, Excel, OpenDocument y texto.',
  /** invalid_import_file: no rows, or no header */
  importEmpty: 'El archivo no tiene datos.',
  /** invalid_argument: an import's mapping names a column the file does not have */
  importColumnInvalid: 'Columna inválida',
  /** patient_limit_reached, by an import */
  importOverLimit: (limit: number, active: number, adding: number) =>
    `Tu plan permite ${limit} pacientes activos por terapeuta: ya tienes ${active} y el archivo añade ${adding}. No se ha importado ninguno; mejora tu plan o reduce el archivo.`,
} as const;
