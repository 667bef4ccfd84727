/**
 * A failed call as the public bundles hold it: a code always, the server's Spanish message as sent
 * (errors.ts in core) and its field errors; the generic messages only when nothing readable came back
 * (no network, a proxy's page). Each bundle's errors.ts adds its own reading of the codes.
 */
import { GENERIC_MESSAGES, type FieldError } from '@divan/core';

export type Failure = { code: string; message: string; status: number; fields: FieldError[] };

/** Any error body (or none) as a Failure. */
export function toFailure(status: number, body: unknown): Failure {
  const b = (body ?? {}) as { code?: unknown; message?: unknown; fields?: unknown };
  const fields = Array.isArray(b.fields) ? (b.fields as FieldError[]).filter((f) => f && typeof f.path === 'string') : [];
  const code =
    typeof b.code === 'string' && b.code
      ? b.code
      : status === 0
        ? 'network_error'
        : status === 429
          ? 'too_many_requests'
          : status === 426
            ? 'outdated_client'
            : status === 503
              ? 'service_unavailable'
              : status === 404
                ? 'not_found'
                : 'unexpected_error';
  return { code, message: typeof b.message === 'string' ? b.message : '', status, fields };
}

/** A caught value as a Failure (an abort or a bug becomes unexpected_error). */
export function asFailure(error: unknown): Failure {
  if (error && typeof error === 'object' && 'code' in error && 'status' in error) return error as Failure;
  return toFailure(500, null);
}

export const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/** The server's sentence, else the generic one of the code. */
export function serverMessage(failure: Pick<Failure, 'code' | 'message'>): string {
  return failure.message.trim() || (GENERIC_MESSAGES as Record<string, string>)[failure.code] || GENERIC_MESSAGES.unexpected_error;
}
