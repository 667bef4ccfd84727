/**
 * Variables a consent template's text may hold, filled from the patient's file when the consent is
 * sent: `{{paciente.nombre}}` and the others below, written with or without spaces inside the braces.
 * Any other `{{…}}` is a mistake the editor reports (unknownVariables), never text sent to a patient.
 */
import { formatDayEs } from '../time/zoned';

export const CONSENT_VARIABLES = {
  'paciente.nombre': 'Nombre completo del paciente',
  'terapeuta.nombre': 'Nombre completo del terapeuta',
  'terapeuta.colegiado': 'Número de colegiado del terapeuta',
  'espacio.nombre': 'Nombre del espacio de trabajo (la consulta o el centro)',
  fecha: 'Fecha del documento (DD/MM/AAAA)',
} as const;
export type ConsentVariable = keyof typeof CONSENT_VARIABLES;
export const CONSENT_VARIABLE_NAMES = Object.keys(CONSENT_VARIABLES) as ConsentVariable[];

/** The values a document is filled with; a missing one (a therapist without registration number) is `null`. */
export type ConsentVariableValues = Partial<Record<ConsentVariable, string | null>>;

const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;

export const isConsentVariable = (name: string): name is ConsentVariable => Object.hasOwn(CONSENT_VARIABLES, name);

/** Every `{{…}}` of the text, as written inside the braces (trimmed), in order, repeated ones once. */
export function variablesIn(text: string): string[] {
  return [...new Set([...text.matchAll(VARIABLE)].map((m) => m[1]!))];
}

/** The `{{…}}` of the text that are not known variables. */
export const unknownVariables = (text: string): string[] => variablesIn(text).filter((v) => !isConsentVariable(v));

/** 'Variable desconocida: {{paciente.apellidos}}. Puedes usar: …' — the editor's message for them. */
export function unknownVariablesMessage(unknown: string[]): string {
  const names = unknown.map((v) => `{{${v}}}`).join(', ');
  const known = CONSENT_VARIABLE_NAMES.map((v) => `{{${v}}}`).join(', ');
  return `${unknown.length === 1 ? 'Variable desconocida' : 'Variables desconocidas'}: ${names}. Puedes usar: ${known}.`;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

export type FillOptions = {
  /** The text is HTML (a section's body): values are escaped, so a name like «Ana <Ruiz>» stays text. */
  html?: boolean;
  /** What a variable without a value becomes (default: an empty string). */
  missing?: string;
};

/**
 * The text with each known variable replaced by its value. Pure: the same text and values give the
 * same document. Unknown `{{…}}` are left as written (templates are validated before they are saved).
 */
export function fillVariables(text: string, values: ConsentVariableValues, opts: FillOptions = {}): string {
  return text.replace(VARIABLE, (whole, name: string) => {
    if (!isConsentVariable(name)) return whole;
    const value = values[name] ?? opts.missing ?? '';
    return opts.html ? escapeHtml(value) : value;
  });
}

/**
 * The values of a document from what the file holds: names as they are written, the day in the
 * Spanish format. Who calls it (sending a consent) reads the patient, the therapist and the workspace.
 */
export function consentVariableValues(input: {
  patientName: string;
  therapistName: string;
  registrationNumber: string | null;
  workspaceName: string;
  /** 'YYYY-MM-DD', the day the document is sent, in the therapist's time zone. */
  day: string;
}): Record<ConsentVariable, string | null> {
  return {
    'paciente.nombre': input.patientName,
    'terapeuta.nombre': input.therapistName,
    'terapeuta.colegiado': input.registrationNumber,
    'espacio.nombre': input.workspaceName,
    fecha: formatDayEs(input.day),
  };
}

/** Where the therapist fills a variable's value: their profile, the patient's file, the workspace. */
export type ConsentVariableSource = 'profile' | 'patient' | 'workspace';

/** What the sending therapist reads about a variable the document uses and has no value for, and where to fill it. */
export const CONSENT_VARIABLE_GAPS: Record<ConsentVariable, { message: string; source: ConsentVariableSource | null }> = {
  'paciente.nombre': { message: 'Falta el nombre del paciente', source: 'patient' },
  'terapeuta.nombre': { message: 'Falta tu nombre', source: 'profile' },
  'terapeuta.colegiado': { message: 'Falta tu número de colegiado/a', source: 'profile' },
  'espacio.nombre': { message: 'Falta el nombre del espacio de trabajo', source: 'workspace' },
  fecha: { message: 'Falta la fecha del documento', source: null },
};

/** Every text of a template that variables are filled into: the title, each section's title, body and checkbox. */
export function templateTexts(t: {
  documentTitle: string;
  sections: { title: string; body: string; checkbox: { label: string } | null }[];
}): string[] {
  return [t.documentTitle, ...t.sections.flatMap((s) => [s.title, s.body, ...(s.checkbox ? [s.checkbox.label] : [])])];
}

/**
 * The known variables the texts use whose value is missing or blank, in the catalogue's order: sent
 * as they are, the document would read «colegiado/a n.º .». The sending dialog says so first.
 */
export function missingVariables(texts: string[], values: ConsentVariableValues): ConsentVariable[] {
  const used = new Set(texts.flatMap(variablesIn));
  return CONSENT_VARIABLE_NAMES.filter((v) => used.has(v) && !values[v]?.trim());
}
