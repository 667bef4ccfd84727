import { GENERIC_MESSAGES } from '../generic-messages';
import type { ErrorCatalogue } from './catalogue';

/** The platform's own errors: generic answers, what reaches the server broken or too big, a stored file gone. */
export const httpErrors = {
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
  // what reaches the server broken or too big (a connection lost mid-upload, a body past its limit)
  upload_incomplete: [400, 'El archivo no ha llegado completo o el formulario de subida está mal formado. Vuelve a subirlo.'],
  request_too_large: [413, 'La petición es demasiado grande.'],
  unsupported_media_type: [415, 'Este formato de datos no se admite aquí: envía los datos en JSON.'],
  request_malformed: [400, 'La petición no ha llegado completa o está mal formada. Vuelve a intentarlo.'],
  request_timeout: [408, 'La petición ha tardado demasiado en llegar. Vuelve a intentarlo.'],
  // a file whose row exists but whose bytes are not in storage (logged with its storage key)
  stored_file_missing: [410, 'El archivo ya no está disponible en el almacenamiento. Avisa a quien administra Diván.'],
  service_unavailable: [503, GENERIC_MESSAGES.service_unavailable],
} as const satisfies ErrorCatalogue;

/** Sentences more precise than the catalogue's, sent with one of its codes by the call that knows more. */
export const fileErrorMessages = {
  /** invalid_type: a picture or logo that is not one of the kept types */
  imageType: 'El archivo debe ser una imagen PNG, JPEG o WebP.',
  /** invalid_argument: a logo is square */
  logoNotSquare: 'El logo debe ser cuadrado',
  /** invalid_type: a file with no bytes */
  empty: 'El archivo está vacío.',
  /** file_too_large: an office file past its unpacked size */
  unpackedTooLarge: (limitMb: number) => `El archivo ocupa más de ${limitMb} MB una vez descomprimido. Divídelo en varios archivos.`,
  /** invalid_import_file or invalid_docx_file: a zip that looks like a bomb */
  oddlyPacked: 'El archivo está comprimido de forma anómala y no se puede leer.',
} as const;
