import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { L, learningKeys } from './keys';

/** Whether this account is Diván's staff (the «Subir vídeos» entry) and the server takes uploads. */
export const useLearningAccess = () =>
  useQuery({
    queryKey: learningKeys.access(),
    queryFn: ({ signal }) => api<{ staff: boolean; uploadConfigured: boolean }>(`${L}/admin/access`, { signal }),
    staleTime: 5 * 60_000,
  });
