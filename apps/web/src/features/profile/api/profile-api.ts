import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Profile, UpdateProfileBody } from '@divan/core';
import { api } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth-store';

export type ImageKind = 'picture' | 'logo';

export const meQueryKey = ['me'] as const;

/** Keeps the persisted copy in step, so the next load paints the right name before /me answers. */
function remember(profile: Profile): Profile {
  useAuthStore.getState().setProfile(profile);
  return profile;
}

export const meQueryOptions = () =>
  queryOptions({
    queryKey: meQueryKey,
    queryFn: async ({ signal }) => remember(await api<Profile>('/me', { signal })),
    // Paint at once from the profile stored at sign-in, then refresh it.
    initialData: () => useAuthStore.getState().profile ?? undefined,
    initialDataUpdatedAt: 0,
  });

export const useMe = () => useQuery(meQueryOptions());

function useProfileMutation<V>(mutationFn: (vars: V) => Promise<Profile>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (profile) => queryClient.setQueryData(meQueryKey, remember(profile)),
  });
}

export const useUpdateProfile = () => useProfileMutation((body: UpdateProfileBody) => api<Profile>('/me', { method: 'PATCH', body }));

export const useUploadImage = () =>
  useProfileMutation(({ kind, file }: { kind: ImageKind; file: File }) => {
    const body = new FormData();
    body.append('file', file);
    return api<Profile>(`/me/${kind}`, { method: 'PUT', body });
  });

export const useDeleteImage = () => useProfileMutation((kind: ImageKind) => api<Profile>(`/me/${kind}`, { method: 'DELETE' }));
