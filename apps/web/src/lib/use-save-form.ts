import { useState, type BaseSyntheticEvent } from 'react';
import type { FieldValues, Path, UseFormReturn, UseFormSetError } from 'react-hook-form';
import { applyApiError } from './form-errors';
import { toast } from './toast';

type Options<TIn extends FieldValues, TOut, R> = {
  /** The call, with the values the form's resolver produced (usually a mutation's `mutateAsync`). */
  save: (values: TOut) => Promise<R>;
  /** The success toast. */
  success: string | ((result: R, values: TOut) => string);
  /** After the toast: close a dialog, navigate… */
  onSaved?: (result: R, values: TOut) => void;
  /** Fields a server answer may name; its message then goes next to the field (see applyApiError). */
  fields?: readonly Path<TIn>[];
  /** Error codes that belong to one field. */
  fieldByCode?: Partial<Record<string, Path<TIn>>>;
  /** Replaces applyApiError: places the failure on the fields and returns the form-level message, if any. */
  placeError?: (error: unknown, setError: UseFormSetError<TIn>) => string | null;
};

/**
 * The save flow of a react-hook-form form: validate, call the server, say so with a toast; on failure,
 * put the server's message next to the field it names, or above the form (`formError`).
 *
 * ```tsx
 * const { onSubmit, formError } = useSaveForm(form, { save: update.mutateAsync, success: 'Perfil guardado', fields: names });
 * <form onSubmit={onSubmit} noValidate>{formError ? <Alert variant="error">{formError}</Alert> : null}…
 * ```
 * `formState.isSubmitting` stays true until the call settles, as with a plain `handleSubmit`.
 */
export function useSaveForm<TIn extends FieldValues, TOut, R = unknown>(
  form: UseFormReturn<TIn, unknown, TOut>,
  { save, success, onSaved, fields = [], fieldByCode = {}, placeError }: Options<TIn, TOut, R>,
): { onSubmit: (event?: BaseSyntheticEvent) => Promise<void>; formError: string | null; setFormError: (message: string | null) => void } {
  const [formError, setFormError] = useState<string | null>(null);

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const result = await save(values);
      toast.success(typeof success === 'string' ? success : success(result, values));
      onSaved?.(result, values);
    } catch (error) {
      setFormError(placeError ? placeError(error, form.setError) : applyApiError(error, form.setError, fieldByCode, fields));
    }
  });

  return { onSubmit, formError, setFormError };
}
