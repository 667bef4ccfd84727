import { useCallback, useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import type { PublicConsent, SignConsentBody, signConsentResponse } from '@divan/core';
import { http, isApiError, type ApiError } from '@/lib/http';

/**
 * The public signing page's calls (`consents/sign/:token`): no account, the token is the credential.
 * Plain `http` and local state, as the other public pages: the query client lives in the signed-in
 * shell, and a patient on a phone should not download it for one read and one write.
 */
export type SignConsentResult = z.infer<typeof signConsentResponse>;

const path = (token: string) => `/public/consents/${encodeURIComponent(token)}`;

export const fetchConsentToSign = (token: string, signal?: AbortSignal) => http<PublicConsent>(path(token), { signal });
export const signConsent = (token: string, body: SignConsentBody) =>
  http<SignConsentResult>(`${path(token)}/sign`, { method: 'POST', body });

/** Any failure as the API's error (code, Spanish message, fields). */
export const asApiError = (error: unknown): Pick<ApiError, 'code' | 'message' | 'fields' | 'status'> =>
  isApiError(error) ? error : { code: 'unexpected_error', message: 'Error inesperado. Vuelve a intentarlo.', fields: [], status: 0 };

export type ConsentToSign = {
  consent: PublicConsent | null;
  /** The first load failed (an invalid, expired or revoked link, no connection…). */
  failure: ReturnType<typeof asApiError> | null;
  /** Loads again; what is shown meanwhile stays (a refresh after signing, an outdated page). */
  reload: () => Promise<PublicConsent | null>;
};

/** The document one signer is to sign. The first view is recorded by the server as `opened`. */
export function useConsentToSign(token: string): ConsentToSign {
  const [consent, setConsent] = useState<PublicConsent | null>(null);
  const [failure, setFailure] = useState<ConsentToSign['failure']>(null);
  const live = useRef(true);

  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const found = await fetchConsentToSign(token, signal);
        if (live.current) {
          setConsent(found);
          setFailure(null);
        }
        return found;
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return null;
        if (live.current) setFailure(asApiError(error));
        return null;
      }
    },
    [token],
  );

  useEffect(() => {
    live.current = true;
    const abort = new AbortController();
    setConsent(null);
    setFailure(null);
    void load(abort.signal);
    return () => {
      live.current = false;
      abort.abort();
    };
  }, [load]);

  return { consent, failure, reload: () => load() };
}

/** «Firmar»: one request at a time; the result or the refusal. */
export function useSignConsent(token: string) {
  const [pending, setPending] = useState(false);
  const busy = useRef(false);
  const sign = useCallback(
    async (
      body: SignConsentBody,
    ): Promise<{ ok: true; result: SignConsentResult } | { ok: false; error: ReturnType<typeof asApiError> }> => {
      if (busy.current)
        return { ok: false, error: { code: 'in_progress', message: 'Ya estamos enviando tu firma…', fields: [], status: 0 } };
      busy.current = true;
      setPending(true);
      try {
        return { ok: true, result: await signConsent(token, body) };
      } catch (error) {
        return { ok: false, error: asApiError(error) };
      } finally {
        busy.current = false;
        setPending(false);
      }
    },
    [token],
  );
  return { sign, pending };
}
