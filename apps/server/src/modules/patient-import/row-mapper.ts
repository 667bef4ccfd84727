import { GENDER, SESSION_TYPE, TREATMENT_MOTIVE, createPatientBody, matchLabel, normalizeText, type ImportField } from '@divan/core';
import type { z } from 'zod';
import { cellText, isBlank, type Cell } from './xlsx-reader';

export type Mapping = Partial<Record<ImportField, number | null>>;
export type PatientInput = z.output<typeof createPatientBody>;
export type Mapped = { ok: true; body: PatientInput } | { ok: false; reason: string };

const DAY_MS = 86_400_000;
/** Day 0 of spreadsheet serial dates (1899-12-30, after Excel's 1900 leap-year bug). */
const SERIAL_EPOCH = Date.UTC(1899, 11, 30);
const GENDER_SYNONYMS: Record<string, 'female' | 'male' | 'other'> = {
  femenino: 'female',
  masculino: 'male',
  f: 'female',
  h: 'male',
  'no binario': 'other',
};

/** Where a field lives in the create-patient body, and its Spanish name for messages. */
const LABELS: Record<string, string> = {
  firstName: 'Nombre',
  lastName: 'Apellidos',
  email: 'Email',
  phone: 'Teléfono',
  birthdate: 'Fecha de nacimiento',
  gender: 'Género',
  'billingInfo.taxId': 'DNI/NIE',
  'billingInfo.line1': 'Dirección',
  'billingInfo.city': 'Ciudad',
  'billingInfo.zipCode': 'Código postal',
  'billingInfo.country': 'País',
  'treatment.motive': 'Motivo de consulta',
  'treatment.sessionType': 'Tipo de sesión',
};

/**
 * One spreadsheet row → the create-patient body, validated by the same rules as the form. Cells
 * are converted first: numbers to text, phone numbers and postal codes stored as numbers (8012 is
 * 08012), date cells and DD/MM/YYYY text to YYYY-MM-DD, Spanish labels to their keys.
 */
export function mapRow(cells: Cell[], mapping: Mapping): Mapped {
  const cell = (f: ImportField): Cell => {
    const i = mapping[f];
    return i === null || i === undefined ? null : (cells[i] ?? null);
  };
  const text = (f: ImportField) => {
    const c = cell(f);
    return isBlank(c) ? undefined : cellText(c);
  };
  const problems: string[] = [];
  const vocab = <K extends string>(f: ImportField, match: (s: string) => K | undefined) => {
    const t = text(f);
    if (t === undefined) return undefined;
    const key = match(t);
    if (!key) problems.push(`${LABELS[pathOf(f)]} desconocido: «${t}»`);
    return key;
  };
  const gender = vocab('gender', (t) => matchLabel(GENDER, t) ?? GENDER_SYNONYMS[normalizeText(t)]);
  const motive = vocab('motive', (t) => matchLabel(TREATMENT_MOTIVE, t));
  const sessionType = vocab('sessionType', (t) => matchLabel(SESSION_TYPE, t));

  const billingInfo = {
    taxId: text('taxId'),
    line1: text('line1'),
    city: text('city'),
    zipCode: zipCode(cell('zipCode')),
    country: text('country'),
  };
  const treatment = { motive, sessionType };
  const candidate = {
    firstName: text('firstName') ?? '',
    lastName: text('lastName'),
    email: text('email'),
    phone: text('phone'),
    birthdate: day(cell('birthdate')),
    gender,
    ...(Object.values(billingInfo).some((v) => v !== undefined) ? { billingInfo } : {}),
    ...(motive || sessionType ? { treatment } : {}),
  };
  const parsed = createPatientBody.safeParse(candidate);
  if (!parsed.success) for (const issue of parsed.error.issues) problems.push(reasonOf(issue.path.join('.'), issue.message));
  if (problems.length || !parsed.success) return { ok: false, reason: [...new Set(problems)].join('; ') };
  return { ok: true, body: parsed.data };
}

/** The field's path in the create body (and in PATIENT_FIELDS). */
export const pathOf = (f: ImportField) =>
  (
    ({
      taxId: 'billingInfo.taxId',
      line1: 'billingInfo.line1',
      city: 'billingInfo.city',
      zipCode: 'billingInfo.zipCode',
      country: 'billingInfo.country',
      motive: 'treatment.motive',
      sessionType: 'treatment.sessionType',
    }) as Record<string, string>
  )[f] ?? f;

/** The form's messages name their field ("Email inválido"); the generic ones get it added. */
function reasonOf(path: string, message: string): string {
  const label = LABELS[path] ?? path;
  if (message === 'Fecha inválida') return `${label} inválida`;
  if (message === 'Opción inválida') return `${label}: opción inválida`;
  if (/^(No puede|Debe|Solo se permiten)/.test(message)) return `${label}: ${message.charAt(0).toLowerCase()}${message.slice(1)}`;
  return message;
}

/** YYYY-MM-DD from a date cell, a serial number, DD/MM/YYYY (or D-M-YY) text or ISO text; anything else is left for validation to refuse. */
export function day(c: Cell): string | undefined {
  if (isBlank(c)) return undefined;
  if (c instanceof Date) return c.toISOString().slice(0, 10);
  if (typeof c === 'number')
    return c > 0 && c < 2_958_466 ? new Date(SERIAL_EPOCH + Math.floor(c) * DAY_MS).toISOString().slice(0, 10) : String(c);
  const s = String(c).trim();
  const dmy = s.match(/^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/);
  if (dmy) {
    const [, d, m, y] = dmy;
    const year = y!.length === 2 ? (Number(y) > Number(String(new Date().getUTCFullYear()).slice(2)) ? 1900 : 2000) + Number(y) : Number(y);
    const iso = `${year}-${m!.padStart(2, '0')}-${d!.padStart(2, '0')}`;
    // 31/02/1990 is not a date: say so rather than roll it over into March.
    const check = new Date(`${iso}T00:00:00Z`);
    return !Number.isNaN(check.getTime()) && check.toISOString().slice(0, 10) === iso ? iso : s;
  }
  return /^\d{4}-\d{2}-\d{2}T/.test(s) ? s.slice(0, 10) : s;
}

/** Spanish postal codes are five digits; spreadsheets drop the leading zero (08012 → 8012). */
export function zipCode(c: Cell): string | undefined {
  if (isBlank(c)) return undefined;
  const s = cellText(c);
  return /^\d{4}$/.test(s) ? `0${s}` : s;
}
