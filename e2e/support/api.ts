import { inject } from 'vitest';

/**
 * The one way e2e tests talk to the server without a browser: `apiAs(token)` for a signed-in user,
 * `publicApi` for what needs no account (sign-up, public links), `site` for what is not under /api/v1
 * (the public pages, the favicon, a calendar feed). Every call answers `{ status, body }` and never throws
 * on a status: the test asserts it (or wraps the call in `ok()` when the set-up only needs it to work).
 *
 * Spanish-safe: bodies go out as UTF-8 JSON and come back decoded as UTF-8, so «Lucía» and «Contraseña»
 * round-trip, and a failing `ok()` prints the server's Spanish message as it is.
 */

/** What every request of the web app sends (the server refuses clients older than it supports). */
export const clientHeaders = { 'X-Client-Version': '1.0.0' } as const;

export type Reply<T = unknown> = {
  status: number;
  /** The parsed JSON body, or the text when the answer is not JSON (null when empty). */
  body: T;
  text: string;
  bytes: Buffer;
  headers: Headers;
};

export type RequestOptions = {
  headers?: Record<string, string>;
  /** A multipart upload instead of a JSON body. */
  form?: FormData;
  /** A body sent as it is (with its own Content-Type in `headers`). */
  raw?: string;
  /** Without the client's version header (as a bare HTTP client would call); `site` sends none unless `bare: false`. */
  bare?: boolean;
  timeoutMs?: number;
};

export type Api = {
  get<T = unknown>(path: string, options?: RequestOptions): Promise<Reply<T>>;
  post<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<Reply<T>>;
  patch<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<Reply<T>>;
  put<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<Reply<T>>;
  delete<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<Reply<T>>;
  request<T = unknown>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<Reply<T>>;
  /** The same caller in one workspace: paths under `/workspaces/:id`. */
  in(workspaceId: string): Api;
};

const decoder = new TextDecoder('utf-8');

function apiAt(root: () => string, token: string | null, bare = false): Api {
  const request = async <T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<Reply<T>> => {
    const headers: Record<string, string> = {
      ...((options.bare ?? bare) ? {} : clientHeaders),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined && !options.form && options.raw === undefined ? { 'Content-Type': 'application/json' } : {}),
      ...options.headers,
    };
    const res = await fetch(`${root()}${path}`, {
      method,
      headers,
      body: options.form ?? options.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
      signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = decoder.decode(bytes);
    const isJson = /\bjson\b/.test(res.headers.get('content-type') ?? '');
    return { status: res.status, body: (isJson && text ? JSON.parse(text) : text || null) as T, text, bytes, headers: res.headers };
  };
  return {
    request,
    get: (path, options) => request('GET', path, undefined, options),
    post: (path, body, options) => request('POST', path, body, options),
    patch: (path, body, options) => request('PATCH', path, body, options),
    put: (path, body, options) => request('PUT', path, body, options),
    delete: (path, body, options) => request('DELETE', path, body, options),
    in: (workspaceId) => apiAt(() => `${root()}/workspaces/${workspaceId}`, token, bare),
  };
}

const baseUrl = () => inject('baseUrl');

/** The API (`/api/v1…`) as the holder of `token` (a therapist's, a member's or a patient's access token). */
export function apiAs(token: string): Api {
  return apiAt(() => `${baseUrl()}/api/v1`, token);
}

/** The API without an account: sign-up, codes, public booking, signing and pay links. */
export const publicApi: Api = apiAt(() => `${baseUrl()}/api/v1`, null);

/** The server outside the API (`/v1/reservations/…`, `/favicon.ico`, a feed's URL path), as a browser would ask. */
export const site: Api = apiAt(baseUrl, null, true);

/** The body of a reply that must be a success (below 300); otherwise fails with the status and the server's message. */
export async function ok<T>(reply: Promise<Reply<T>>): Promise<T> {
  const r = await reply;
  if (r.status >= 300) throw new Error(`${r.status}: ${r.text}`);
  return r.body;
}

/** Signs a therapist up (a 201 or the test fails); the mailed link confirms it (support/accounts.ts). */
export async function signUp(firstName: string, email: string, password = 'Consulta2025'): Promise<void> {
  const res = await publicApi.post('/realms/therapists/users', { firstName, email, password });
  if (res.status !== 201) throw new Error(`sign-up of ${email}: ${res.status} ${res.text}`);
}
