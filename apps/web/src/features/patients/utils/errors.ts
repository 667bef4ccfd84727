import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { DOCUMENT_MAX_MB, errorMessage } from '@divan/core';
import { isApiError } from '@/lib/api-client';

/** The message to show for a failure. Catalogue messages with a placeholder get their value here. */
export function messageOf(error: unknown): string {
  if (!isApiError(error)) return errorMessage('unexpected_error');
  return error.message.replace('{limit}', String(DOCUMENT_MAX_MB));
}

/**
 * Puts a server refusal next to the fields it names (any code that carries `fields`, e.g.
 * treatment_end_required or patient_already_exists), or returns the message for the form alert.
 * `rename` maps a server path to the form's field when they differ.
 */
export function placeServerError<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  known: readonly string[],
  rename: Record<string, string> = {},
): string | null {
  if (!isApiError(error)) return errorMessage('unexpected_error');
  if (error.code === 'outdated_client') return null;
  let placed = false;
  for (const f of error.fields) {
    const path = f.path.replace(/^body\./, '');
    const name = rename[path] ?? path;
    if (known.includes(name)) {
      setError(name as Path<T>, { type: 'server', message: f.message }, { shouldFocus: !placed });
      placed = true;
    }
  }
  // A business rule's sentence says what to do, so it stays above the form too; a bare validation
  // failure is fully explained by the field messages.
  return placed && error.code === 'invalid_argument' ? null : messageOf(error);
}
