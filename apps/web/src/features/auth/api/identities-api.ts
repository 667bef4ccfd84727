import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatePasswordBody, CreatePasswordCode, IdentitiesResponse, IdentityResponse, SocialProvider } from '@divan/core';
import { api } from '@/lib/api-client';
import type { ProviderAnswer } from './social-api';

/** Ajustes › Seguridad › «Accesos vinculados»: the Google and Apple identities of the signed-in account. */
export const identitiesKey = ['me', 'identities'] as const;

export const useIdentities = () =>
  useQuery({ queryKey: identitiesKey, queryFn: ({ signal }) => api<IdentitiesResponse>('/me/identities', { signal }) });

/** Starts linking another provider: the browser then goes to the provider and comes back to the callback page. */
export const authorizeIdentity = (provider: SocialProvider) =>
  api<{ url: string }>(`/me/identities/${provider}/authorize`, { method: 'POST', body: {} });

/** Back from the provider while signed in: links the identity to this account. */
export const linkIdentity = (provider: SocialProvider, answer: ProviderAnswer) =>
  api<IdentityResponse>(`/me/identities/${provider}`, { method: 'POST', body: answer });

export function useUnlinkIdentity() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/me/identities/${id}`, { method: 'DELETE' }),
    onSuccess: (_data, id) => {
      qc.setQueryData<IdentitiesResponse>(identitiesKey, (old) => old && { ...old, identities: old.identities.filter((i) => i.id !== id) });
      void qc.invalidateQueries({ queryKey: identitiesKey });
    },
  });
}

/** «Crear contraseña»: a code mailed to the account's email, to prove it before the first password. */
export const sendCreatePasswordCode = () => api<CreatePasswordCode>('/me/password/code', { method: 'POST', body: {} });

/** The first password of an account made through a provider; the page then shows «Cambiar contraseña». */
export function useCreatePassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePasswordBody) => api<void>('/me/password', { method: 'POST', body }),
    onSuccess: () => {
      qc.setQueryData<IdentitiesResponse>(identitiesKey, (old) => old && { ...old, hasPassword: true });
      void qc.invalidateQueries({ queryKey: identitiesKey });
    },
  });
}
