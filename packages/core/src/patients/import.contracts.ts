import { z } from 'zod';
import { msg } from '../messages';
import { normalizeText } from './patient.constants';

export const IMPORT_MAX_MB = 10;
/** Rows shown to the user while mapping columns. */
export const IMPORT_SAMPLE_ROWS = 5;
/** How long an uploaded file waits for its commit, and a finished import for its last poll. */
export const IMPORT_TTL_MS = 30 * 60_000;

/** The patient fields a spreadsheet column can fill, with the label the mapping screen shows. */
export const IMPORT_FIELDS = {
  firstName: 'Nombre',
  lastName: 'Apellidos',
  email: 'Email',
  phone: 'Teléfono',
  birthdate: 'Fecha de nacimiento',
  gender: 'Género',
  taxId: 'DNI/NIE',
  line1: 'Dirección',
  city: 'Ciudad',
  zipCode: 'Código postal',
  country: 'País',
  motive: 'Motivo de consulta',
  sessionType: 'Tipo de sesión',
} as const;
export type ImportField = keyof typeof IMPORT_FIELDS;
export const IMPORT_FIELD_NAMES = Object.keys(IMPORT_FIELDS) as ImportField[];

/** Headers people write in Spanish spreadsheets, compared without accents or case. */
const HEADER_SYNONYMS: Record<ImportField, string[]> = {
  firstName: ['nombre', 'nombre de pila', 'first name', 'name'],
  lastName: ['apellidos', 'apellido', 'primer apellido', 'last name', 'surname'],
  email: ['email', 'e-mail', 'correo', 'correo electronico', 'mail'],
  phone: ['telefono', 'movil', 'telefono movil', 'celular', 'tlf', 'tel', 'phone'],
  birthdate: ['fecha de nacimiento', 'nacimiento', 'fecha nacimiento', 'f. nacimiento', 'birthdate'],
  gender: ['genero', 'sexo', 'gender'],
  taxId: ['dni', 'nie', 'nif', 'dni/nie', 'dni/nif', 'dni / nie', 'nif/nie', 'documento', 'documento de identidad'],
  line1: ['direccion', 'domicilio', 'calle', 'address'],
  city: ['ciudad', 'poblacion', 'localidad', 'municipio', 'city'],
  zipCode: ['codigo postal', 'cp', 'c.p.', 'c. postal', 'zip'],
  country: ['pais', 'country'],
  motive: ['motivo de consulta', 'motivo', 'motivo consulta'],
  sessionType: ['tipo de sesion', 'tipo sesion', 'tipo'],
};

/** For each field, the first column whose header names it; fields with no such column are left out. */
export function suggestImportMapping(headers: string[]): Partial<Record<ImportField, number>> {
  const normalized = headers.map((h) => normalizeText(h ?? ''));
  const out: Partial<Record<ImportField, number>> = {};
  const used = new Set<number>();
  for (const field of IMPORT_FIELD_NAMES) {
    const i = normalized.findIndex((h, idx) => !used.has(idx) && HEADER_SYNONYMS[field].includes(h));
    if (i >= 0) {
      out[field] = i;
      used.add(i);
    }
  }
  return out;
}

export const importIdParams = z.object({ workspaceId: z.uuid(), importId: z.uuid() });

export const importUploadResponse = z.object({
  importId: z.uuid(),
  /** The header row, one string per column. */
  columns: z.array(z.string()),
  sampleRows: z.array(z.array(z.string())),
  totalRows: z.number().int(),
  suggestedMapping: z.partialRecord(z.enum(IMPORT_FIELD_NAMES as [ImportField, ...ImportField[]]), z.number().int()),
});
export type ImportUpload = z.infer<typeof importUploadResponse>;

const columnIndex = z
  .number({ error: msg.invalid('Columna') })
  .int({ error: msg.invalid('Columna') })
  .min(0, { error: msg.invalid('Columna') });

export const importCommitBody = z.object({
  /** Field → column index (0-based, as in `columns`); a field left out or null is not imported. */
  mapping: z
    .partialRecord(z.enum(IMPORT_FIELD_NAMES as [ImportField, ...ImportField[]], { error: msg.invalidEnum() }), columnIndex.nullable())
    .refine((m) => m.firstName !== undefined && m.firstName !== null, {
      error: 'Indica qué columna contiene el nombre',
      path: ['firstName'],
    }),
});
export type ImportCommitBody = z.input<typeof importCommitBody>;

export const IMPORT_STATUSES = ['validating', 'importing', 'done', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const importRowError = z.object({ row: z.number().int(), reason: z.string() });
export type ImportRowError = z.infer<typeof importRowError>;

export const importStatusResponse = z.object({
  status: z.enum(IMPORT_STATUSES),
  /** Rows validated so far (all of them once the status is `importing`). */
  processed: z.number().int(),
  total: z.number().int(),
  /** Patients written; final once `done` (0 when `failed`: nothing is imported then). */
  created: z.number().int(),
  /** Rows left out, by their row number in the sheet, with the reason in Spanish. */
  errors: z.array(importRowError),
  /** Why the whole import failed. */
  message: z.string().optional(),
});
export type ImportProgress = z.infer<typeof importStatusResponse>;
