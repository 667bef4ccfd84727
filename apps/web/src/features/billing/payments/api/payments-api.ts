import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  chargeInvoiceResponse,
  InvoicePayments,
  PatientPaymentMethod,
  PaymentAccount,
  paymentLinkResponse,
  refundInvoiceResponse,
} from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey } from '@/lib/workspace-keys';
import { invoiceKeys, invoicePath } from '../../api/keys';

export type PaymentLink = z.infer<typeof paymentLinkResponse>;
export type ChargeAnswer = z.infer<typeof chargeInvoiceResponse>;
export type RefundAnswer = z.infer<typeof refundInvoiceResponse>;

/**
 * Whose Stripe account: the therapist's own (`/me/payment-account`) or a workspace's
 * (`/workspaces/:id/payment-account`, workspace_billing). The same five routes under either prefix.
 */
export type AccountHolder = { kind: 'me' } | { kind: 'workspace'; workspaceId: string };

const accountPath = (h: AccountHolder) => (h.kind === 'me' ? '/me/payment-account' : `/workspaces/${h.workspaceId}/payment-account`);
export const accountKey = (h: AccountHolder) =>
  h.kind === 'me' ? (['me', 'payment-account'] as const) : workspaceKey(h.workspaceId, 'payment-account');

export const paymentAccountOptions = (h: AccountHolder) =>
  queryOptions({ queryKey: accountKey(h), queryFn: ({ signal }) => api<PaymentAccount>(accountPath(h), { signal }) });

export const usePaymentAccount = (h: AccountHolder, enabled = true) => useQuery({ ...paymentAccountOptions(h), enabled });

/** Stripe's onboarding page for the account (made first when there is none yet). */
export async function onboardingUrl(h: AccountHolder, connectFirst: boolean): Promise<string> {
  if (connectFirst) await api<PaymentAccount>(accountPath(h), { method: 'POST' });
  return (await api<{ url: string }>(`${accountPath(h)}/onboarding-link`, { method: 'POST' })).url;
}

export const dashboardUrl = async (h: AccountHolder) =>
  (await api<{ url: string }>(`${accountPath(h)}/dashboard-link`, { method: 'POST' })).url;

/** Reads the account's state from Stripe now (back from onboarding). */
export function useSyncAccount(h: AccountHolder) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<PaymentAccount>(`${accountPath(h)}/sync`, { method: 'POST' }),
    onSuccess: (account) => qc.setQueryData(accountKey(h), account),
  });
}

// The patient's card, saved on their therapist's account.
const methodPath = (wid: string, pid: string) => `/workspaces/${wid}/patients/${pid}/payment-method`;
export const paymentMethodKey = (wid: string, pid: string) => workspaceKey(wid, 'patients', pid, 'payment-method');

/** While a card link waits for the patient, read it again now and then: the card appears once Stripe confirms it. */
export const usePaymentMethod = (wid: string, pid: string, enabled = true) =>
  useQuery({
    queryKey: paymentMethodKey(wid, pid),
    queryFn: ({ signal }) => api<PatientPaymentMethod>(methodPath(wid, pid), { signal }),
    enabled,
    refetchInterval: (q) => (q.state.data && !q.state.data.card && q.state.data.pendingLinkExpiresAt ? 10_000 : false),
  });

function useMethodWrite<V>(wid: string, pid: string, fn: (vars: V) => Promise<PatientPaymentMethod>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: (m) => qc.setQueryData(paymentMethodKey(wid, pid), m) });
}

export const useSetAutoCharge = (wid: string, pid: string) =>
  useMethodWrite(wid, pid, (autoCharge: boolean) =>
    api<PatientPaymentMethod>(methodPath(wid, pid), { method: 'PUT', body: { autoCharge } }),
  );

export const useRemoveCard = (wid: string, pid: string) =>
  useMethodWrite(wid, pid, () => api<PatientPaymentMethod>(methodPath(wid, pid), { method: 'DELETE' }));

/** A link for the patient to save a card: mailed (`send`) or only returned, to copy. The tab then shows it waits. */
export function useCardLink(wid: string, pid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (send: boolean) => api<PaymentLink>(`${methodPath(wid, pid)}/link`, { method: 'POST', body: { send } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: paymentMethodKey(wid, pid) }),
  });
}

// An invoice's card payments.
export const invoicePaymentsKey = (wid: string, id: string) => [...invoiceKeys.detail(wid, id), 'payments'] as const;

/** Under the invoice's key: whatever reads the invoice again reads its payments too. */
export const useInvoicePayments = (wid: string, id: string) =>
  useQuery({
    queryKey: invoicePaymentsKey(wid, id),
    queryFn: ({ signal }) => api<InvoicePayments>(`${invoicePath(wid, id)}/payments`, { signal }),
  });

/** After any payment action: the invoice (its state), its payments and the lists (totals) are read again. */
function useRefreshInvoice(wid: string) {
  const qc = useQueryClient();
  return (id: string) => {
    void qc.invalidateQueries({ queryKey: invoiceKeys.detail(wid, id) });
    void qc.invalidateQueries({ queryKey: invoiceKeys.lists(wid) });
  };
}

export function useChargeInvoice(wid: string) {
  const refresh = useRefreshInvoice(wid);
  return useMutation({
    mutationFn: (id: string) => api<ChargeAnswer>(`${invoicePath(wid, id)}/charge`, { method: 'POST' }),
    // A refusal (card declined) is an attempt too: the list shows it.
    onSettled: (_a, _e, id) => refresh(id),
  });
}

export const useInvoicePayLink = (wid: string) =>
  useMutation({
    mutationFn: ({ id, send }: { id: string; send: boolean }) =>
      api<PaymentLink>(`${invoicePath(wid, id)}/pay-link`, { method: 'POST', body: { send } }),
  });

export function useRefundInvoice(wid: string) {
  const refresh = useRefreshInvoice(wid);
  return useMutation({
    mutationFn: ({ id, amountCents, reason }: { id: string; amountCents?: number; reason: string }) =>
      api<RefundAnswer>(`${invoicePath(wid, id)}/refund`, {
        method: 'POST',
        body: amountCents === undefined ? { reason } : { amountCents, reason },
      }),
    onSettled: (_a, _e, v) => refresh(v.id),
  });
}
