import { DOCUMENT_MAX_BYTES, DOCUMENT_MAX_MB, errorMessage } from '@divan/core';

/** What the server accepts (it reads the type from the bytes); checked here first to save a wasted upload. */
const EXTENSIONS = ['pdf', 'png', 'jpg', 'jpeg', 'webp', 'gif', 'docx', 'xlsx', 'odt', 'txt'];
export const ACCEPT = EXTENSIONS.map((e) => `.${e}`).join(',');

export function uploadProblem(file: File): string | null {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!EXTENSIONS.includes(ext))
    return 'Tipo de archivo no admitido. Sube un PDF, una imagen (PNG, JPG, WebP o GIF), un Word, un Excel, un ODT o un texto.';
  if (file.size > DOCUMENT_MAX_BYTES) return errorMessage('document_too_large').replace('{limit}', String(DOCUMENT_MAX_MB));
  if (file.size === 0) return 'El archivo está vacío.';
  return null;
}

/** "PDF", "Imagen", "Word"… for the type column. */
export function typeLabel(contentType: string): string {
  if (contentType === 'application/pdf') return 'PDF';
  if (contentType.startsWith('image/')) return `Imagen ${contentType.slice(6).toUpperCase().replace('JPEG', 'JPG')}`;
  if (contentType.includes('wordprocessingml')) return 'Word';
  if (contentType.includes('spreadsheetml')) return 'Excel';
  if (contentType.includes('opendocument.text')) return 'ODT';
  if (contentType.startsWith('text/')) return 'Texto';
  return 'Archivo';
}
