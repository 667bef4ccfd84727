import { errorMessage } from '../errors';
import { DOCUMENT_MAX_BYTES, DOCUMENT_MAX_MB } from '../patients/patient.constants';

/**
 * A file sent in the chat is kept as a patient document: the documents' types and size, checked in the
 * browser before uploading (the server reads the type from the bytes and has the last word). No Zod
 * here: the companion's and the web chat's bundles import these.
 */
const EXTENSIONS = ['pdf', 'png', 'jpg', 'jpeg', 'webp', 'gif', 'docx', 'xlsx', 'odt', 'txt'];
export const CHAT_ATTACHMENT_ACCEPT = EXTENSIONS.map((e) => `.${e}`).join(',');

/** Why the documents would refuse the file (their Spanish messages), or null. */
export function chatAttachmentProblem(file: { name: string; size: number }): string | null {
  const dot = file.name.lastIndexOf('.');
  const ext = dot > 0 ? file.name.slice(dot + 1).toLowerCase() : '';
  if (!EXTENSIONS.includes(ext))
    return 'Tipo de archivo no válido. Se admiten PDF, imágenes (PNG, JPEG, WebP, GIF), Word, Excel, OpenDocument y texto.';
  if (file.size > DOCUMENT_MAX_BYTES) return errorMessage('document_too_large').replace('{limit}', String(DOCUMENT_MAX_MB));
  if (file.size === 0) return 'El archivo está vacío.';
  return null;
}

/**
 * The message's text: what was typed, or the file's name when only a file goes (the server wants a
 * text; the list's preview then names the file). The bubble leaves out a text that only repeats it.
 */
export const chatBodyWithAttachment = (typed: string, fileName: string | null): string => typed.trim() || (fileName ?? '');

export const chatRepeatsAttachment = (body: string, attachment: { name: string } | null): boolean =>
  !!attachment && body.trim() === attachment.name;
