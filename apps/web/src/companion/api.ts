/**
 * The companion's calls, with plain fetch: the patients' realm and the patient's own routes
 * (/api/v1/patient/…), the public connect link. Each throws a `Failure` on any error, network included;
 * a call with the access token refreshes it once and retries when the server refuses it.
 */
import {
  APP_VERSION,
  type ChatCounters,
  type ChatMessage,
  type ChatMessagesPage,
  type CompanionDocument,
  type CompanionSession,
  type CompanionSessions,
  type PatientFile,
  type PublicSlots,
} from '@divan/core';
import { toFailure } from './errors';
import { accessToken, device, getSession, refresh, setSession, type PatientSession } from './session';

type Init = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  auth?: 'access' | 'refresh' | 'none';
};

async function send(path: string, init: Init, bearer: string | null): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Client-Version': APP_VERSION };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  try {
    return await fetch(`/api/v1${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
    });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw toFailure(0, null);
  }
}

export async function call<T>(path: string, init: Init = {}): Promise<T> {
  const auth = init.auth ?? 'access';
  const bearer = auth === 'none' ? null : auth === 'refresh' ? (getSession()?.refreshToken ?? null) : await accessToken();
  let res = await send(path, init, bearer);
  if (auth === 'access' && res.status === 401) {
    const body = (await res
      .clone()
      .json()
      .catch(() => null)) as { code?: string } | null;
    if (body?.code === 'invalid_access_token') res = await send(path, init, await refresh());
  }
  const body: unknown = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) {
    if (auth !== 'none' && (body as { code?: string } | null)?.code === 'session_not_found') setSession(null);
    throw toFailure(res.status, body);
  }
  return body as T;
}

export type Challenge = { challenge: string; expiresAt: string };
type Tokens = { accountId: string; accessToken: string; refreshToken: string; profile: PatientSession['profile'] };
export type Invitation = { workspaceName: string; therapistName: string | null; maskedEmail: string };

const seg = encodeURIComponent;
const signedIn = (t: Tokens) =>
  setSession({ accountId: t.accountId, accessToken: t.accessToken, refreshToken: t.refreshToken, profile: t.profile });

export const authApi = {
  challenge: (email: string) => call<Challenge>('/realms/patients/login/challenge', { method: 'POST', body: { email }, auth: 'none' }),
  login: async (challenge: string, code: string) =>
    signedIn(await call<Tokens>('/realms/patients/login', { method: 'POST', body: { challenge, code, ...device }, auth: 'none' })),
  /** Ends the session on the server, then here whatever the answer (offline, already ended). */
  logout: async () => {
    await call('/realms/patients/sessions', { method: 'DELETE', auth: 'refresh' }).catch(() => undefined);
    setSession(null);
  },
};

export const connectApi = {
  invitation: (token: string, signal?: AbortSignal) => call<Invitation>(`/public/patient-connect/${seg(token)}`, { signal, auth: 'none' }),
  mailCode: (token: string) => call<Challenge>(`/public/patient-connect/${seg(token)}/code`, { method: 'POST', auth: 'none' }),
  withCode: async (token: string, challenge: string, code: string) => {
    const res = await call<Tokens & { file: PatientFile }>(`/public/patient-connect/${seg(token)}`, {
      method: 'POST',
      body: { challenge, code, ...device },
      auth: 'none',
    });
    signedIn(res);
    return res.file;
  },
  /** Signed in already: the invitation must have been sent to this account's email. */
  accept: async (token: string) =>
    (await call<{ file: PatientFile }>('/realms/patients/connect', { method: 'POST', body: { token } })).file,
};

export const filesApi = {
  list: async (signal?: AbortSignal) => (await call<{ items: PatientFile[] }>('/patient/files', { signal })).items,
  disconnect: (fileId: string) => call<null>(`/patient/files/${seg(fileId)}`, { method: 'DELETE' }),
};

const chatPath = (fileId: string) => `/patient/files/${seg(fileId)}/chat`;

export const chatApi = {
  /** `before`: older, newest first (default: from the latest); `after`: what came since, oldest first. */
  messages: (fileId: string, q: { before?: string; after?: string } = {}, signal?: AbortSignal) =>
    call<ChatMessagesPage>(
      `${chatPath(fileId)}/messages${q.before || q.after ? `?${new URLSearchParams(q as Record<string, string>)}` : ''}`,
      { signal },
    ),
  send: (fileId: string, body: string, attachmentDocumentId?: string) =>
    call<ChatMessage>(`${chatPath(fileId)}/messages`, { method: 'POST', body: { body, attachmentDocumentId } }),
  /** The patient's unread count left on the file. */
  read: (fileId: string, upTo: string) =>
    call<{ patientFileId: string; count: number } | null>(`${chatPath(fileId)}/read`, { method: 'POST', body: { upTo } }),
  counters: (signal?: AbortSignal) => call<ChatCounters>('/patient/chat/counters', { signal }),
};

const filePath = (fileId: string) => `/patient/files/${seg(fileId)}`;

export const sessionsApi = {
  /** `upcoming`: soonest first; `past`: latest first. */
  list: (fileId: string, when: 'upcoming' | 'past', page: number, signal?: AbortSignal) =>
    call<CompanionSessions>(`${filePath(fileId)}/sessions?${new URLSearchParams({ when, page: String(page), pageSize: '10' })}`, {
      signal,
    }),
  /** A month ('YYYY-MM') of the free slots of the session's service to move it to. */
  slots: (fileId: string, sessionId: string, month: string, timeZone: string | undefined, signal?: AbortSignal) =>
    call<PublicSlots>(
      `${filePath(fileId)}/sessions/${seg(sessionId)}/slots?${new URLSearchParams(timeZone ? { month, timeZone } : { month })}`,
      { signal },
    ),
  cancel: async (fileId: string, sessionId: string) =>
    (await call<{ session: CompanionSession }>(`${filePath(fileId)}/sessions/${seg(sessionId)}/cancel`, { method: 'POST' })).session,
  move: async (fileId: string, sessionId: string, startsAt: string) =>
    (
      await call<{ session: CompanionSession }>(`${filePath(fileId)}/sessions/${seg(sessionId)}/move`, {
        method: 'POST',
        body: { startsAt },
      })
    ).session,
};

export const documentsApi = {
  /** The documents the therapist shared, newest first. */
  list: async (fileId: string, signal?: AbortSignal) =>
    (await call<{ items: CompanionDocument[] }>(`${filePath(fileId)}/documents`, { signal })).items,
  /** The bytes, with the access token (refreshed once when refused): a link cannot carry the bearer. */
  download: async (fileId: string, documentId: string): Promise<Blob> => {
    const path = `${filePath(fileId)}/documents/${seg(documentId)}/download`;
    let res = await send(path, {}, await accessToken());
    if (res.status === 401) res = await send(path, {}, await refresh());
    if (!res.ok) throw toFailure(res.status, await res.json().catch(() => null));
    return res.blob();
  },
};
