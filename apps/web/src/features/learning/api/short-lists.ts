import { useQuery } from '@tanstack/react-query';
import type { LearningCard } from '@divan/core';
import { api } from '@/lib/api-client';
import { L, learningKeys } from './keys';

/**
 * The dashboard's short lists: «Continuar viendo» (≤ 6) and «Vídeos populares» (≤ 8). Apart from
 * learning-api.ts so the dashboard's chunk carries only this (the shell is at its budget).
 */
export const useLearningShortList = (which: 'continue' | 'popular') =>
  useQuery({
    queryKey: which === 'continue' ? learningKeys.continue() : learningKeys.popular(),
    queryFn: ({ signal }) => api<{ items: LearningCard[] }>(`${L}/${which}`, { signal }),
    staleTime: 60_000,
  });
