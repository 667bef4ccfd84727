import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

type Schema<In, Out> = z.ZodType<Out, In>;

/**
 * A zodResolver whose schema (and Zod itself, ~25 KB gzipped) loads on first use instead of with the
 * page: signed-out screens paint without it, and it is fetched as soon as the user types in a field.
 */
export function lazyZodResolver<In extends FieldValues, Out>(
  load: () => Promise<Schema<In, Out>>,
): { resolver: Resolver<In, unknown, Out>; preload: () => void } {
  let ready: Promise<Resolver<In, unknown, Out>> | null = null;
  const get = () =>
    (ready ??= Promise.all([load(), import('@hookform/resolvers/zod')]).then(
      ([schema, { zodResolver }]) => zodResolver(schema) as unknown as Resolver<In, unknown, Out>,
    ));
  return {
    resolver: async (values, context, options) => (await get())(values, context, options),
    preload: () =>
      void get().catch(() => {
        ready = null; // a failed download is retried on the next attempt
      }),
  };
}
