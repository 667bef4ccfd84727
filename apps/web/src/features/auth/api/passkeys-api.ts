import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Passkey, WebauthnOptions } from '@divan/core';
import { api } from '@/lib/api-client';
import { createPasskey } from '@/lib/passkeys';
import { secondFactorKey } from './second-factor-api';

const base = '/realms/therapists/passkeys';

/** Ajustes › Seguridad › «Llaves de acceso» (issue 32). */
export const passkeysKey = ['me', 'passkeys'] as const;

export const usePasskeys = () =>
  useQuery({ queryKey: passkeysKey, queryFn: ({ signal }) => api<{ items: Passkey[] }>(base, { signal }).then((r) => r.items) });

export const passkeysApi = {
  /** The browser creates the passkey for the server's options; the server checks and keeps it with its name. */
  add: async (name: string) => {
    const options = await api<WebauthnOptions>(`${base}/options`, { method: 'POST', body: {} });
    const response = await createPasskey(options);
    return api<Passkey>(base, { method: 'POST', body: { name, response } });
  },
  rename: (id: string, name: string) => api<Passkey>(`${base}/${id}`, { method: 'PATCH', body: { name } }),
  remove: (id: string) => api<void>(`${base}/${id}`, { method: 'DELETE' }),
  stepUpOptions: () => api<WebauthnOptions>('/realms/therapists/second-factor/step-up/passkey/options', { method: 'POST', body: {} }),
  stepUp: (response: unknown) =>
    api<{ verifiedAt: string }>('/realms/therapists/second-factor/step-up/passkey', { method: 'POST', body: { response } }),
};

/** Each change also moves the second-factor status (its count of passkeys, the enrolment a policy asks for). */
function useChange<V, T>(fn: (v: V) => Promise<T>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: passkeysKey });
      void qc.invalidateQueries({ queryKey: secondFactorKey });
    },
  });
}

export const useAddPasskey = () => useChange(passkeysApi.add);
export const useRenamePasskey = () => useChange((v: { id: string; name: string }) => passkeysApi.rename(v.id, v.name));
export const useRemovePasskey = () => useChange(passkeysApi.remove);
