/**
 * The patient's session in this browser, stored as the therapists' app stores its own (localStorage,
 * `{state, version}`, every tab reading the same) but under its own key, so a therapist and a patient
 * signed in on one computer never mix. Refreshes are single-flight and take turns across tabs (Web
 * Locks when there are): a tab that waited uses the tokens the previous one stored.
 */
import { APP_VERSION, TOKEN_EXPIRY_MARGIN_MS, type DeviceInfo } from '@divan/core';
import { useSyncExternalStore } from 'react';

export const STORAGE_KEY = 'divan-patient-auth';

export type PatientSession = {
  accountId: string;
  accessToken: string;
  refreshToken: string;
  profile: { id: string; email: string; firstName: string };
};

export const device: DeviceInfo = {
  appVersion: APP_VERSION,
  deviceManufacturer: 'unknown',
  deviceModel: 'unknown',
  platformType: 'web',
  platformVersion: `${APP_VERSION}+companion`,
};

let current: PatientSession | null = read();
const listeners = new Set<() => void>();

function read(): PatientSession | null {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as { state?: PatientSession } | null;
    return stored?.state?.refreshToken ? stored.state : null;
  } catch {
    return null;
  }
}

function emit() {
  listeners.forEach((l) => l());
}

export function getSession(): PatientSession | null {
  return current;
}

export function setSession(next: PatientSession | null): void {
  current = next;
  if (next) localStorage.setItem(STORAGE_KEY, JSON.stringify({ state: next, version: 1 }));
  else localStorage.removeItem(STORAGE_KEY);
  emit();
}

/** Signing in or out in another tab applies here too. */
if (typeof window !== 'undefined')
  window.addEventListener('storage', (e) => {
    if (e.key !== STORAGE_KEY) return;
    current = read();
    emit();
  });

export function useSession(): PatientSession | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}

/** `exp` of a JWT (not verified: the server does); unreadable counts as expired. */
export function isExpiring(token: string | null | undefined, now = Date.now()): boolean {
  const payload = token?.split('.')[1];
  if (!payload) return true;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof json.exp !== 'number' || json.exp * 1000 - now <= TOKEN_EXPIRY_MARGIN_MS;
  } catch {
    return true;
  }
}

type Locks = { request<T>(name: string, callback: () => Promise<T>): Promise<T> };
const locks = typeof navigator !== 'undefined' ? (navigator as { locks?: Locks }).locks : undefined;

let inFlight: Promise<string> | null = null;

/** A new access token from the refresh token; a refused refresh token ends the session here. */
export function refresh(): Promise<string> {
  inFlight ??= (async () => {
    const stale = current?.accessToken;
    const run = async () => {
      // Another tab may have refreshed while this one waited for the lock.
      const stored = read();
      if (stored && stored.accessToken !== stale && !isExpiring(stored.accessToken)) {
        current = stored;
        return stored.accessToken;
      }
      const session = stored ?? current;
      if (!session) throw { code: 'session_not_found', message: '', status: 401, fields: [] };
      const res = await fetch(`/api/v1/realms/patients/token?${new URLSearchParams(device as Record<string, string>)}`, {
        headers: { Accept: 'application/json', 'X-Client-Version': APP_VERSION, Authorization: `Bearer ${session.refreshToken}` },
      }).catch(() => null);
      if (!res) throw { code: 'network_error', message: '', status: 0, fields: [] };
      const body = (await res.json().catch(() => null)) as {
        accessToken?: string;
        refreshToken?: string;
        code?: string;
        message?: string;
      } | null;
      if (!res.ok || !body?.accessToken) {
        if (res.status === 401 || body?.code === 'session_not_found') setSession(null);
        throw { code: body?.code ?? 'unexpected_error', message: body?.message ?? '', status: res.status };
      }
      setSession({ ...session, accessToken: body.accessToken, refreshToken: body.refreshToken ?? session.refreshToken });
      return body.accessToken;
    };
    return locks ? locks.request('divan-patient-refresh', run) : run();
  })().finally(() => {
    inFlight = null;
  });
  return inFlight;
}

/** A usable access token, refreshed first when missing or expiring within 30 s. */
export async function accessToken(): Promise<string> {
  const token = current?.accessToken;
  return token && !isExpiring(token) ? token : refresh();
}
