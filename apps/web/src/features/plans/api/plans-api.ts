import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  BillingChangeBody,
  BillingChangePreview,
  BillingCheckout,
  BillingCheckoutBody,
  BillingCheckoutStatus,
  BillingOverview,
  BillingPortal,
  FeedbackBody,
  FeedbackReceipt,
  SupportContact,
  Workspace,
} from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey, workspacesQueryKey } from '@/lib/workspace-keys';
import { useAuthStore } from '@/stores/auth-store';
import { useWorkspacesStore } from '@/stores/workspaces-store';
import { keepsPolling } from '../utils/plan-offer';

/** Diván's own billing of one workspace (its plan, not the invoices it issues to patients). */
export const billingOverviewKey = (wid: string) => workspaceKey(wid, 'plan-billing');
// Not under the overview's key: refreshing the overview must not ask about the Checkout again.
const checkoutStatusKey = (wid: string, sessionId: string) => workspaceKey(wid, 'plan-checkout', sessionId);

/** GET /workspaces/:wid/billing: whether billing works, who may buy, active users, the subscription. */
export const useBillingOverview = (wid: string, enabled = true) =>
  useQuery({
    queryKey: billingOverviewKey(wid),
    queryFn: ({ signal }) => api<BillingOverview>(`/workspaces/${wid}/billing`, { signal }),
    enabled,
  });

/** POST …/billing/checkout: where to send the browser to pay (the provider's hosted Checkout). */
export const useStartCheckout = (wid: string) =>
  useMutation({
    mutationFn: (body: BillingCheckoutBody) => api<BillingCheckout>(`/workspaces/${wid}/billing/checkout`, { method: 'POST', body }),
  });

/** Leaves Diván for the Checkout page. */
export const goToCheckout = (url: string) => window.location.assign(url);

/**
 * GET …/billing/checkout/:sessionId every `pollMs` while `polling`, until the webhook has put the plan on the
 * workspace (`applied`) or the Checkout expired. A failure stops it (the page offers «Reintentar»).
 */
export const useCheckoutStatus = (wid: string, sessionId: string, { pollMs, polling }: { pollMs: number; polling: boolean }) =>
  useQuery({
    queryKey: checkoutStatusKey(wid, sessionId),
    queryFn: ({ signal }) => api<BillingCheckoutStatus>(`/workspaces/${wid}/billing/checkout/${encodeURIComponent(sessionId)}`, { signal }),
    enabled: !!wid && !!sessionId,
    refetchInterval: (q) => (polling && q.state.status !== 'error' && keepsPolling(q.state.data) ? pollMs : false),
    // A tab in the background keeps asking: the payment is what the person is waiting for.
    refetchIntervalInBackground: true,
    staleTime: 0,
  });

/**
 * The plan is on the workspace: the list of workspaces is read again (GET /workspaces) and the store fed
 * with it, so every screen shows the new plan and features — the shell's own copy is marked stale too.
 */
export async function refreshWorkspaces(qc: QueryClient, wid: string): Promise<void> {
  await qc.invalidateQueries({ queryKey: billingOverviewKey(wid) });
  await refreshWorkspaceList(qc, wid);
}

async function refreshWorkspaceList(qc: QueryClient, wid: string): Promise<void> {
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

// Under the overview's key: whatever refreshes the overview refreshes these too.
const nextInvoiceKey = (wid: string) => [...billingOverviewKey(wid), 'next-invoice'] as const;
const changePreviewsKey = (wid: string) => [...billingOverviewKey(wid), 'change-preview'] as const;

/**
 * GET …/billing/next-invoice: the plan's next invoice as the provider would write it now (null without one).
 * Needs workspace billing (a 403 otherwise): `enabled` only for who may manage the plan.
 */
export const useNextInvoice = (wid: string, enabled: boolean) =>
  useQuery({
    queryKey: nextInvoiceKey(wid),
    queryFn: ({ signal }) => api<BillingChangePreview | null>(`/workspaces/${wid}/billing/next-invoice`, { signal }),
    enabled,
  });

/** POST …/billing/subscription/preview: what changing to `to` would do and bill (null: nothing chosen to preview). */
export const useChangePreview = (wid: string, to: BillingChangeBody | null) =>
  useQuery({
    queryKey: [...changePreviewsKey(wid), to?.planId, to?.interval],
    queryFn: ({ signal }) =>
      api<BillingChangePreview>(`/workspaces/${wid}/billing/subscription/preview`, { method: 'POST', body: to, signal }),
    enabled: !!to,
    // The provider prorates to the second: a preview is read afresh each time the dialog asks for it.
    staleTime: 0,
    gcTime: 60_000,
  });

/**
 * After a change, cancellation or reactivation: the overview the server answered is shown at once, the next
 * invoice and the previews are read again, and so is the list of workspaces (the plan and features every
 * screen reads) — in the background: the change is made whether or not that last read succeeds.
 */
function changed(qc: QueryClient, wid: string, overview: BillingOverview): void {
  qc.setQueryData(billingOverviewKey(wid), overview);
  qc.removeQueries({ queryKey: changePreviewsKey(wid) });
  void qc.invalidateQueries({ queryKey: nextInvoiceKey(wid) });
  refreshWorkspaceList(qc, wid).catch(() => undefined);
}

/** PUT …/billing/subscription: another plan or interval (up now; down, or yearly → monthly, at the renewal). */
export const useChangePlan = (wid: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BillingChangeBody) => api<BillingOverview>(`/workspaces/${wid}/billing/subscription`, { method: 'PUT', body }),
    onSuccess: (overview) => changed(qc, wid, overview),
  });
};

/** POST …/billing/subscription/cancel or /reactivate: the renewal off («renovación desactivada») or on again. */
export const useRenewal = (wid: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (action: 'cancel' | 'reactivate') =>
      api<BillingOverview>(`/workspaces/${wid}/billing/subscription/${action}`, { method: 'POST' }),
    onSuccess: (overview) => changed(qc, wid, overview),
  });
};

/** POST …/billing/subscription/scheduled-change/drop: «Anular el cambio» waiting for the renewal (yearly → monthly). */
export const useDropScheduledChange = (wid: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<BillingOverview>(`/workspaces/${wid}/billing/subscription/scheduled-change/drop`, { method: 'POST' }),
    onSuccess: (overview) => changed(qc, wid, overview),
  });
};

/** GET /support: the installation's contact address. Same key as Ajustes › Ayuda's, so it is asked once. */
export const useSupportContact = () =>
  useQuery({
    queryKey: ['support'] as const,
    queryFn: ({ signal }) => api<SupportContact>('/support', { signal }),
    staleTime: Infinity,
  });

/** POST /me/feedback with topic team_plan: «Consultar precio» of Team, mailed to Diván's team. */
export const useSendTeamInquiry = () =>
  useMutation({ mutationFn: (body: FeedbackBody) => api<FeedbackReceipt>('/me/feedback', { method: 'POST', body }) });

/** The provider's Customer Portal (cards, receipts): asked for, then the browser goes there. */
export const useOpenPortal = (wid: string) =>
  useMutation({
    mutationFn: () => api<BillingPortal>(`/workspaces/${wid}/billing/portal`, { method: 'POST' }),
    onSuccess: ({ url }) => goToCheckout(url),
  });
