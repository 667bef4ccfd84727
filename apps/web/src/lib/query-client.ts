import { QueryClient } from '@tanstack/react-query';
import { QUERY_GC_MS, QUERY_RETRY, queryRetryDelay } from '@divan/core';
import { onSessionEnd } from './auth-session';
import { isApiError } from './http';

/** A 4xx will answer the same way again (bad input, no access, outdated client): retrying only adds load. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < QUERY_RETRY;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: shouldRetry,
      retryDelay: queryRetryDelay,
      gcTime: QUERY_GC_MS,
      staleTime: 30_000,
    },
    mutations: { retry: false },
  },
});

// Another user signing in on this browser must never see the previous one's cached data.
onSessionEnd(() => queryClient.clear());
