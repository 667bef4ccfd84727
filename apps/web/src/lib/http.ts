import { APP_VERSION, genericMessage, type FieldError } from '@divan/core';

export const API_BASE = '/api/v1';

/** Every failure the app sees: a catalogue code, its Spanish message and, for 400s, the offending fields. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly fields: FieldError[];

  constructor(code: string, message: string, status: number, fields: FieldError[] = []) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.fields = fields;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export type HttpRequest = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  body?: unknown;
  bearer?: string | null;
  signal?: AbortSignal;
  /** Extra headers (an upload token, a raw body's type). */
  headers?: Record<string, string>;
  /** Outlives the page (a save on `pagehide`). */
  keepalive?: boolean;
};

type Hooks = { onOutdatedClient?: () => void };
const hooks: Hooks = {};

/** Lets the app react to a 426 from any call without this module knowing about stores. */
export function setHttpHooks(next: Hooks): void {
  Object.assign(hooks, next);
}

export function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const qs = params.toString();
  return `${API_BASE}${path}${qs ? `?${qs}` : ''}`;
}

/**
 * Normalises any error body into an ApiError. The server's Spanish message is kept: it says exactly
 * what went wrong (which file types are accepted, the size limit filled in). Without one, a generic
 * sentence for the status stands in; the full catalogue stays out of the first screen's bundle.
 */
export function toApiError(status: number, body: unknown): ApiError {
  const b = (body ?? {}) as { code?: unknown; message?: unknown; fields?: unknown };
  const fields = Array.isArray(b.fields) ? (b.fields as FieldError[]) : [];
  if (status === 426) return new ApiError('outdated_client', genericMessage('outdated_client'), status, fields);
  const fallback = genericMessage(status === 429 ? 'too_many_requests' : status === 503 ? 'service_unavailable' : 'unexpected_error');
  if (typeof b.code === 'string' && b.code)
    return new ApiError(b.code, typeof b.message === 'string' && b.message.trim() ? b.message : fallback, status, fields);
  if (status === 429) return new ApiError('too_many_requests', fallback, status);
  if (status === 503) return new ApiError('service_unavailable', fallback, status);
  return new ApiError('unexpected_error', fallback, status);
}

/** One HTTP exchange with the API: headers, JSON or multipart, error normalisation. No auth logic. */
export async function http<T>(path: string, req: HttpRequest = {}): Promise<T> {
  const headers: Record<string, string> = { 'X-Client-Version': APP_VERSION, Accept: 'application/json' };
  let body: BodyInit | undefined;
  // FormData and Blob (a file's piece) go as they are; anything else is JSON.
  if (req.body instanceof FormData || req.body instanceof Blob) body = req.body;
  else if (req.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(req.body);
  }
  if (req.bearer) headers.Authorization = `Bearer ${req.bearer}`;
  Object.assign(headers, req.headers);

  let res: Response;
  try {
    res = await fetch(buildUrl(path, req.query), {
      method: req.method ?? 'GET',
      headers,
      body,
      signal: req.signal,
      ...(req.keepalive ? { keepalive: true } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError('network_error', genericMessage('network_error'), 0);
  }

  const text = await res.text().catch(() => '');
  let json: unknown = undefined;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  if (res.ok) return json as T;

  const error = toApiError(res.status, json);
  if (error.code === 'outdated_client') hooks.onOutdatedClient?.();
  throw error;
}
