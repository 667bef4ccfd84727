import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BillingDetails, BillingDetailsResponse, DivanInvoices, DivanInvoiceSummary } from '@divan/core';
import { api } from '@/lib/api-client';
import { downloadFile } from '@/lib/file-transfer';
import { billingOverviewKey } from './plans-api';

// Under the overview's key: a plan just paid for (refreshWorkspaces) reads the invoices again too.
const detailsKey = (wid: string) => [...billingOverviewKey(wid), 'details'] as const;
const invoicesKey = (wid: string) => [...billingOverviewKey(wid), 'invoices'] as const;

/**
 * GET …/billing/details: who Diván invoices for this workspace's plan, and how those invoices are taxed
 * (both null before anyone filled them). A 403 for who may not manage the plan: `enabled` only for who may.
 */
export const useBillingDetails = (wid: string, enabled = true) =>
  useQuery({
    queryKey: detailsKey(wid),
    queryFn: ({ signal }) => api<BillingDetailsResponse>(`/workspaces/${wid}/billing/details`, { signal }),
    enabled,
  });

/** PUT …/billing/details, with the values the shared schema produced; the answer (with its tax) is shown at once. */
export const useSaveBillingDetails = (wid: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BillingDetails) => api<BillingDetailsResponse>(`/workspaces/${wid}/billing/details`, { method: 'PUT', body }),
    onSuccess: (saved) => qc.setQueryData(detailsKey(wid), saved),
  });
};

/** GET …/billing/invoices: Diván's invoices to this workspace, newest first. */
export const useDivanInvoices = (wid: string, enabled = true) =>
  useQuery({
    queryKey: invoicesKey(wid),
    queryFn: ({ signal }) => api<DivanInvoices>(`/workspaces/${wid}/billing/invoices`, { signal }),
    enabled,
  });

/** One of Diván's invoices as a PDF, downloaded with the session's token (a plain link would not carry it). */
export const downloadDivanInvoicePdf = (wid: string, invoice: Pick<DivanInvoiceSummary, 'id' | 'number'>) =>
  downloadFile(`/workspaces/${wid}/billing/invoices/${invoice.id}/pdf`, `factura-divan-${invoice.number}.pdf`);
