import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { genericMessage } from '@divan/core';
import { isApiError } from './http';

/**
 * Puts an API failure where the user looks: next to the field it concerns (by code, or by the `fields`
 * of an invalid_argument answer), otherwise returns the message for the form-level alert.
 */
export function applyApiError<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fieldByCode: Partial<Record<string, Path<T>>> = {},
  knownFields: readonly Path<T>[] = [],
): string | null {
  if (!isApiError(error)) return genericMessage('unexpected_error');
  // The app-wide banner already asks for a reload; repeating it in the form adds noise.
  if (error.code === 'outdated_client') return null;
  const field = fieldByCode[error.code];
  if (field) {
    setError(field, { type: 'server', message: error.message }, { shouldFocus: true });
    return null;
  }
  if (error.code === 'invalid_argument' && error.fields.length > 0) {
    let placed = false;
    for (const f of error.fields) {
      const name = f.path.replace(/^body\./, '') as Path<T>;
      if (knownFields.includes(name)) {
        setError(name, { type: 'server', message: f.message }, { shouldFocus: !placed });
        placed = true;
      }
    }
    if (placed) return null;
  }
  return error.message;
}
