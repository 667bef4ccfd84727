import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  BillingOverview,
  GiftCheckout,
  GiftCheckoutBody,
  GiftPurchase,
  GiftView,
  RedeemGift,
  RedeemGiftBody,
  Workspace,
} from '@divan/core';
import { api } from '@/lib/api-client';
import { isApiError } from '@/lib/http';
import { workspaceKey, workspacesQueryKey } from '@/lib/workspace-keys';
import { useAuthStore } from '@/stores/auth-store';
import { useWorkspacesStore } from '@/stores/workspaces-store';
import { keepPurchase } from '../utils/gift-storage';

/** The plans screens' key for GET /workspaces/:wid/billing (same answer, so one cache). */
const billingOverviewKey = (wid: string) => workspaceKey(wid, 'plan-billing');
const purchaseKey = (wid: string, sessionId: string) => workspaceKey(wid, 'gift-purchase', sessionId);
const giftViewKey = (code: string) => ['gift', code] as const;
/** Refusals that mean the gift is no longer what the page shows. */
const GIFT_GONE = new Set(['gift_redeemed', 'gift_expired', 'gift_not_found']);

/** GET /workspaces/:wid/billing: whether payments work here and whether this person may pay for the workspace (`canManage`). */
export const useGiftBilling = (wid: string, enabled = true) =>
  useQuery({
    queryKey: billingOverviewKey(wid),
    queryFn: ({ signal }) => api<BillingOverview>(`/workspaces/${wid}/billing`, { signal }),
    enabled,
  });

/** POST …/gifts/checkout: where to send the browser to pay the gift (the provider's hosted Checkout). */
export const useStartGiftCheckout = (wid: string) =>
  useMutation({
    mutationFn: (body: GiftCheckoutBody) => api<GiftCheckout>(`/workspaces/${wid}/gifts/checkout`, { method: 'POST', body }),
  });

/** Leaves Diván for the Checkout page. */
export const goToCheckout = (url: string) => window.location.assign(url);

/**
 * GET …/gifts/checkout/:sessionId every `pollMs` while `polling` and the payment is still `open`. The
 * server shows the code on its first read after the payment only: it is kept (gift-storage) as the answer
 * arrives, here and not in a component, so no later read, remount or second effect can lose it. Never read
 * again on focus or remount: only the polling asks.
 */
export const useGiftPurchase = (
  wid: string,
  sessionId: string,
  { pollMs, polling, enabled }: { pollMs: number; polling: boolean; enabled: boolean },
) =>
  useQuery({
    queryKey: purchaseKey(wid, sessionId),
    queryFn: async ({ signal }) => {
      const purchase = await api<GiftPurchase>(`/workspaces/${wid}/gifts/checkout/${encodeURIComponent(sessionId)}`, { signal });
      keepPurchase(sessionId, purchase);
      return purchase;
    },
    enabled: enabled && !!wid && !!sessionId,
    refetchInterval: (q) => (polling && q.state.status !== 'error' && q.state.data?.status === 'open' ? pollMs : false),
    // A tab in the background keeps asking: the code is what the person is waiting for.
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    refetchOnMount: false,
    staleTime: Infinity,
  });

/** GET /gifts/:code (public): what the gift holds and whether it can still be redeemed. */
export const useGiftView = (code: string) =>
  useQuery({
    queryKey: giftViewKey(code),
    queryFn: ({ signal }) => api<GiftView>(`/gifts/${encodeURIComponent(code)}`, { signal, auth: 'none' }),
    enabled: !!code,
  });

/**
 * The signed-in person's workspaces (GET /workspaces) on the public gift page, which is outside the shell:
 * painted from the persisted list at once, then read again and put in the store, as the shell does.
 */
export function useGiftWorkspaces(enabled: boolean) {
  const userId = useAuthStore((s) => s.userId);
  const query = useQuery({
    queryKey: workspacesQueryKey,
    queryFn: ({ signal }) => api<Workspace[]>('/workspaces', { signal }),
    initialData: () => {
      const { workspaces, userId: owner } = useWorkspacesStore.getState();
      return workspaces.length && owner === useAuthStore.getState().userId ? workspaces : undefined;
    },
    initialDataUpdatedAt: 0,
    enabled,
  });
  useEffect(() => {
    // dataUpdatedAt is 0 for the persisted copy: only a real answer updates the store.
    if (enabled && userId && query.data && query.dataUpdatedAt > 0) useWorkspacesStore.getState().setWorkspaces(userId, query.data);
  }, [enabled, userId, query.data, query.dataUpdatedAt]);
  return query;
}

/**
 * The trial grew, or the next invoice has the gift's credit: the workspaces are read again and the store fed
 * with them (the trial notice and every screen's plan follow), the workspace redeemed on becomes the current
 * one, and its billing (the next invoice too) is read afresh.
 */
async function refreshAfterRedeem(qc: QueryClient, wid: string): Promise<void> {
  void qc.invalidateQueries({ queryKey: billingOverviewKey(wid) });
  await qc.invalidateQueries({ queryKey: workspacesQueryKey });
  const list = await qc.fetchQuery({
    queryKey: workspacesQueryKey,
    queryFn: ({ signal }) => api<Workspace[]>('/workspaces', { signal }),
    staleTime: 0,
  });
  const userId = useAuthStore.getState().userId;
  if (userId) useWorkspacesStore.getState().setWorkspaces(userId, list);
  useWorkspacesStore.getState().select(wid);
}

/**
 * POST /workspaces/:wid/gifts/redeem {code}: for the workspace's owner; its free trial runs the gift's months
 * longer, or its plan's next invoice takes what the gift is worth off (`applied`).
 */
export const useRedeemGift = (wid: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RedeemGiftBody) => api<RedeemGift>(`/workspaces/${wid}/gifts/redeem`, { method: 'POST', body }),
    // Not awaited: the gift is redeemed whether or not these reads succeed, and the success is said at once.
    onSuccess: () => {
      useWorkspacesStore.getState().select(wid);
      refreshAfterRedeem(qc, wid).catch(() => undefined);
    },
    // Used or expired since the page was read (another tab, the colleague first): the page reads the gift
    // again and shows how it is now, instead of offering a button that can only be refused.
    onError: (e, body) => {
      if (isApiError(e) && GIFT_GONE.has(e.code)) void qc.invalidateQueries({ queryKey: giftViewKey(body.code) });
    },
  });
};
