import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  LearningList,
  LearningListQuery,
  LearningMedia,
  LearningProgress,
  LearningProgressBody,
  LearningPurchase,
  LearningPurchaseResult,
  LearningVideo,
} from '@divan/core';
import { api } from '@/lib/api-client';
import { http, isApiError, type Query } from '@/lib/http';
import { useAuthStore } from '@/stores/auth-store';
import { L, learningKeys, videoPath } from './keys';

/** GET /learning/videos: the catalogue or one of «Mi formación»'s shelves, 24 a page. */
export const useLearningList = (query: LearningListQuery) =>
  useQuery({
    queryKey: learningKeys.list(query),
    queryFn: ({ signal }) => api<LearningList>(`${L}/videos`, { query: query as Query, signal }),
    // Paging and filtering keep the previous page on screen instead of flashing the skeleton.
    placeholderData: keepPreviousData,
  });

/**
 * GET /learning/videos/:id; `pollMs` while a payment made on the provider's page is being confirmed.
 * `workspaceId`: the workspace «Continuar y pagar» charges, whose billing data give the page its `charge`
 * (its key under the video's, so everything written to `learningKeys.video(id)` reaches every workspace's).
 */
export const useLearningVideo = (id: string, workspaceId: string | null, pollMs: number | false = false) =>
  useQuery({
    queryKey: [...learningKeys.video(id), workspaceId ?? ''],
    queryFn: ({ signal }) => api<LearningVideo>(videoPath(id), { signal, query: workspaceId ? { workspaceId } : undefined }),
    refetchInterval: (q) => (pollMs && !q.state.data?.purchased ? pollMs : false),
  });

/** A file link is asked for again a minute before it expires (the player swaps it keeping its time). */
export const MEDIA_RENEW_MS = 60_000;
const msLeft = (media: LearningMedia | undefined): number => {
  if (media?.full?.kind !== 'file') return Infinity;
  return Math.max(5_000, Date.parse(media.full.expiresAt) - Date.now() - MEDIA_RENEW_MS);
};

/** GET …/media: the preview for everyone, the full video for buyers; refreshed before a file link expires. */
export const useLearningMedia = (id: string, enabled = true) =>
  useQuery({
    queryKey: learningKeys.media(id),
    queryFn: ({ signal }) => api<LearningMedia>(`${videoPath(id)}/media`, { signal }),
    enabled,
    staleTime: (q) => msLeft(q.state.data),
    refetchInterval: (q) => {
      const left = msLeft(q.state.data);
      return Number.isFinite(left) ? left : false;
    },
    // Back to the tab: asked again only once stale (the link near its end); a new link means a new src.
    refetchOnWindowFocus: true,
  });

export const usePurchases = () =>
  useQuery({
    queryKey: learningKeys.purchases(),
    queryFn: ({ signal }) => api<{ items: LearningPurchase[] }>(`${L}/purchases`, { signal }),
  });

/** Every list a purchase, a favourite or progress changes: the catalogue, the shelves, the dashboard's. */
export function refreshLearningLists(qc: QueryClient): void {
  void qc.invalidateQueries({ queryKey: learningKeys.lists() });
  void qc.invalidateQueries({ queryKey: learningKeys.continue() });
  void qc.invalidateQueries({ queryKey: learningKeys.popular() });
}

/**
 * POST/DELETE …/bookmark. The favourite shows at once; «already there» / «not there» mean the state is
 * already what was asked (another tab), so they are not errors here.
 */
export function useBookmark(id: string) {
  const qc = useQueryClient();
  const key = learningKeys.video(id);
  return useMutation({
    mutationFn: async (on: boolean) => {
      try {
        await api<null>(`${videoPath(id)}/bookmark`, { method: on ? 'POST' : 'DELETE' });
      } catch (e) {
        if (isApiError(e) && e.code === (on ? 'learning_bookmark_exists' : 'learning_bookmark_not_found')) return;
        throw e;
      }
    },
    onMutate: (on) => {
      qc.setQueriesData<LearningVideo>({ queryKey: key }, (v) => (v ? { ...v, bookmarked: on } : v));
    },
    onError: (_e, on) => {
      qc.setQueriesData<LearningVideo>({ queryKey: key }, (v) => (v ? { ...v, bookmarked: !on } : v));
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: learningKeys.lists() }),
  });
}

/** After a purchase: the video, its media (now the full one) and every list read afresh. */
export function refreshAfterPurchase(qc: QueryClient, id: string): Promise<unknown> {
  refreshLearningLists(qc);
  void qc.invalidateQueries({ queryKey: learningKeys.purchases() });
  return Promise.all([
    qc.invalidateQueries({ queryKey: learningKeys.video(id) }),
    qc.invalidateQueries({ queryKey: learningKeys.media(id) }),
  ]);
}

/** «Continuar y pagar»: charged to the workspace's saved card, or the bank's check on the provider's page. */
export function usePurchaseVideo(workspaceId: string, id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<LearningPurchaseResult>(`/workspaces/${workspaceId}/learning/videos/${encodeURIComponent(id)}/purchase`, { method: 'POST' }),
    // Not awaited: the page says «bought» (and asks to start the video) at once, while these are read.
    onSuccess: (result) => {
      if (result.status === 'purchased') void refreshAfterPurchase(qc, id);
    },
    onError: (e) => {
      // Bought meanwhile (another tab, the provider's page): the page shows it as bought.
      if (isApiError(e) && e.code === 'learning_already_purchased') void refreshAfterPurchase(qc, id);
    },
  });
}

/** Leaves Diván for the provider's page (the bank's 3-D Secure); it comes back with ?purchase=done. */
export const goToProvider = (url: string) => window.location.assign(url);

/** PUT …/progress while the page lives. */
export const saveProgress = (id: string, body: LearningProgressBody) =>
  api<LearningProgress>(`${videoPath(id)}/progress`, { method: 'PUT', body });

/**
 * The same save as the page goes away (`pagehide`, a hidden tab): a keepalive request with the token held
 * now — there is no time to refresh it, and a save missed here costs at most the last few seconds.
 */
export function saveProgressOnLeave(id: string, body: LearningProgressBody): void {
  const bearer = useAuthStore.getState().accessToken;
  if (!bearer) return;
  http(`${videoPath(id)}/progress`, { method: 'PUT', body, bearer, keepalive: true }).catch(() => undefined);
}
