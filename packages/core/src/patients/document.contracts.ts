import { z } from 'zod';
import { msg } from '../messages';
import { requiredText, textField } from '../fields';

export const DOCUMENT_NAME_MAX = 200;
export const DOCUMENT_TAG_MAX = 40;
export const DOCUMENT_TAGS_PER_DOCUMENT = 20;

/** What an uploaded document may be; the server reads the type from the bytes, never from the name. */
export const DOCUMENT_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.text',
  'text/plain; charset=utf-8',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

const tagName = textField('Etiqueta')
  .trim()
  .transform((s) => s.replace(/\s+/g, ' '))
  .pipe(
    z
      .string()
      .min(1, { error: msg.required('etiqueta') })
      .max(DOCUMENT_TAG_MAX, { error: msg.maxLength(DOCUMENT_TAG_MAX) }),
  );

/** Tags are shared across the workspace and unique ignoring case: "Informe" and "informe" are one tag. */
export const documentTags = z.array(tagName).max(DOCUMENT_TAGS_PER_DOCUMENT, { error: msg.arrayMax(DOCUMENT_TAGS_PER_DOCUMENT) });

export const updateDocumentBody = z.object({
  name: requiredText('nombre', DOCUMENT_NAME_MAX).optional(),
  tags: documentTags.optional(),
});
export type UpdateDocumentBody = z.input<typeof updateDocumentBody>;

/** Shared with the patient (the companion app will show it); a plain flag for now. */
export const shareDocumentBody = z.object({ shared: z.boolean({ error: msg.required('compartido') }) });

export const documentIdParams = z.object({ workspaceId: z.uuid(), patientId: z.uuid(), documentId: z.uuid() });

export const documentResponse = z.object({
  id: z.uuid(),
  patientId: z.uuid(),
  name: z.string(),
  contentType: z.string(),
  /** Bytes of the original file. */
  size: z.number().int(),
  tags: z.array(z.string()),
  shared: z.boolean(),
  uploadedBy: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PatientDocument = z.infer<typeof documentResponse>;

export const documentTagsQuery = z.object({
  q: textField('Búsqueda')
    .trim()
    .max(DOCUMENT_TAG_MAX, { error: msg.maxLength(DOCUMENT_TAG_MAX) })
    .optional(),
});
export const documentTagResponse = z.object({ id: z.uuid(), name: z.string() });
export type DocumentTag = z.infer<typeof documentTagResponse>;
