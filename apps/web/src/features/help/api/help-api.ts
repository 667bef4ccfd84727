import { useMutation, useQuery } from '@tanstack/react-query';
import type { FeedbackBody, FeedbackReceipt, SupportContact } from '@divan/core';
import { api } from '@/lib/api-client';

export const supportQueryKey = ['support'] as const;

/** Where to write for help (the installation's OPERATOR_EMAIL), or null: it changes only with a restart. */
export const useSupport = () =>
  useQuery({
    queryKey: supportQueryKey,
    queryFn: ({ signal }) => api<SupportContact>('/support', { signal }),
    staleTime: Infinity,
  });

export const useSendFeedback = () =>
  useMutation({ mutationFn: (body: FeedbackBody) => api<FeedbackReceipt>('/me/feedback', { method: 'POST', body }) });
