import { z } from 'zod';
import { msg } from '@divan/core';

type Issue = z.core.$ZodRawIssue;

/** Spanish names of request keys that are English words (the rest are named by their schemas' own labels). */
const LABELS: Record<string, string> = {
  body: 'contenido',
  limit: 'límite',
  page: 'número de página',
  pageSize: 'tamaño de página',
  file: 'archivo',
};

/** The field as a person reads it: the last named part of its path ("firstName", not "0"). */
function fieldOf(issue: Issue): string {
  const named = [...(issue.path ?? [])].reverse().find((p) => typeof p === 'string');
  return named ? (LABELS[String(named)] ?? String(named)) : '';
}

/**
 * Spanish for every message Zod writes itself (a schema's own message still wins): the general
 * messages of spec §5 with the field's name, so no English default ("Invalid input: expected object",
 * "Too big…", invalid UUIDs in a path) reaches a client. Server-side only: the web forms carry their own.
 */
export function spanishZodMessage(issue: Issue): string | undefined {
  const field = fieldOf(issue);
  // The whole body (or query) is of the wrong shape: there is no field to name.
  if (!field && (issue.code === 'invalid_type' || issue.code === 'invalid_union')) return 'Datos inválidos';
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? msg.required(field) : msg.invalid(field);
    case 'too_big':
      if (issue.origin === 'string') return msg.maxLength(Number(issue.maximum));
      if (issue.origin === 'array' || issue.origin === 'set') return msg.arrayMax(Number(issue.maximum));
      return msg.max(String(issue.maximum));
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? msg.required(field) : msg.minLength(Number(issue.minimum));
      if (issue.origin === 'array' || issue.origin === 'set') return `Debe tener al menos ${String(issue.minimum)} elementos`;
      return `No puede ser menor de ${String(issue.minimum)}`;
    case 'invalid_format':
      if (issue.format === 'email') return msg.invalidEmail();
      if (issue.format === 'date') return msg.invalidDate();
      if (issue.format === 'datetime') return msg.invalidInstant();
      return msg.invalid(field);
    case 'invalid_value':
      return msg.invalidEnum();
    case 'unrecognized_keys':
      return `Campos no permitidos: ${issue.keys.join(', ')}`;
    case 'not_multiple_of':
      return msg.invalid(field);
    default:
      return msg.invalid(field);
  }
}

export function useSpanishZodMessages() {
  z.config({ customError: spanishZodMessage });
}
