import { useCallback, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { z } from 'zod';

type Values = Record<string, string>;
/** Shaped like react-hook-form's (`errors.email?.message`), so the screens read the same. */
type Errors<V> = Partial<Record<keyof V & string, { message: string }>>;
type Schema<V, Out> = z.ZodType<Out, V>;

/**
 * A schema (and Zod, ~25 KB gzipped) that loads on first use instead of with the page: signed-out
 * screens paint without it, and it is fetched as soon as the user types in a field.
 */
export function lazySchema<V extends Values, Out>(load: () => Promise<Schema<V, Out>>) {
  let ready: Promise<Schema<V, Out>> | null = null;
  const get = () =>
    (ready ??= load().catch((error: unknown) => {
      ready = null; // a failed download is retried on the next attempt
      throw error;
    }));
  return { get, preload: () => void get().catch(() => undefined) };
}

type Options<V extends Values, Out> = { defaultValues: V; schema: { get: () => Promise<Schema<V, Out>> } };
type RegisterOptions = { onChange?: (event: ChangeEvent<HTMLInputElement>) => void };

/**
 * The little of react-hook-form the signed-out screens use, over the same core Zod schemas: uncontrolled
 * text inputs, validation on submit and again on each change after the first submit, the first
 * invalid field focused, and server errors placed next to a field (`setError`, as `applyApiError` calls
 * it). react-hook-form (~12 KB gzipped) stays in the signed-in shell, where its forms are richer.
 */
export function useLightForm<V extends Values, Out = V>({ defaultValues, schema }: Options<V, Out>) {
  const defaults = useRef(defaultValues);
  const values = useRef<V>({ ...defaultValues });
  const elements = useRef<Partial<Record<keyof V, HTMLInputElement | null>>>({});
  const submitted = useRef(false);
  const [errors, setErrors] = useState<Errors<V>>({});
  const [isSubmitting, setSubmitting] = useState(false);
  const names = Object.keys(defaultValues) as (keyof V & string)[];

  const issuesOf = useCallback(async (): Promise<{ data: Out } | { errors: Errors<V> }> => {
    const parsed = (await schema.get()).safeParse(values.current);
    if (parsed.success) return { data: parsed.data };
    const found: Errors<V> = {};
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? '') as keyof V & string;
      found[name] ??= { message: issue.message };
    }
    return { errors: found };
  }, [schema]);

  const setValue = (name: keyof V & string, value: string) => {
    values.current = { ...values.current, [name]: value };
    const el = elements.current[name];
    if (el && el.value !== value) el.value = value;
  };

  const setError = (name: string, error: { message?: string }, options?: { shouldFocus?: boolean }) => {
    setErrors((e) => ({ ...e, [name]: { message: error.message ?? '' } }));
    if (options?.shouldFocus) elements.current[name as keyof V]?.focus();
  };

  const register = (name: keyof V & string, options: RegisterOptions = {}) => ({
    name,
    defaultValue: defaults.current[name],
    ref: (el: HTMLInputElement | null) => {
      elements.current[name] = el;
    },
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      values.current = { ...values.current, [name]: event.target.value };
      options.onChange?.(event);
      // Like react-hook-form: quiet until the first submit, then each change re-checks its field.
      if (submitted.current) {
        void issuesOf().then((r) => setErrors((e) => ({ ...e, [name]: 'errors' in r ? r.errors[name] : undefined })));
      }
    },
  });

  const handleSubmit = (onValid: (data: Out) => Promise<void> | void) => async (event?: FormEvent) => {
    event?.preventDefault();
    submitted.current = true;
    setSubmitting(true);
    try {
      const result = await issuesOf();
      if ('errors' in result) {
        setErrors(result.errors);
        const first = names.find((n) => result.errors[n]);
        if (first) elements.current[first]?.focus();
        return;
      }
      setErrors({});
      await onValid(result.data);
    } finally {
      setSubmitting(false);
    }
  };

  const reset = (next: V = defaults.current) => {
    submitted.current = false;
    setErrors({});
    for (const n of names) setValue(n, next[n] ?? '');
  };

  const resetField = (name: keyof V & string) => {
    setValue(name, defaults.current[name] ?? '');
    setErrors((e) => ({ ...e, [name]: undefined }));
  };

  return { register, handleSubmit, setError, setValue, reset, resetField, formState: { errors, isSubmitting } };
}
