import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InvoiceSeriesCounters, InvoiceSettings } from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey } from '@/lib/workspace-keys';

/** The member's own invoicing settings in the workspace (automatic invoices): plans are per workspace. */
export const invoiceSettingsKey = (wid: string) => workspaceKey(wid, 'invoice-settings');
const path = (wid: string) => `/workspaces/${wid}/invoice-settings`;

export const useInvoiceSettings = (wid: string, enabled: boolean) =>
  useQuery({ queryKey: invoiceSettingsKey(wid), queryFn: ({ signal }) => api<InvoiceSettings>(path(wid), { signal }), enabled });

export function useSaveInvoiceSettings(wid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { autoInvoice: boolean }) => api<InvoiceSettings>(path(wid), { method: 'PUT', body }),
    onSuccess: (saved) => qc.setQueryData(invoiceSettingsKey(wid), saved),
  });
}

/** This year's counters of the therapist's own series: the settings say the next number from them (read again on each visit: an invoice issued meanwhile moves it). */
export const useMyInvoiceSeries = () =>
  useQuery({
    queryKey: ['me', 'invoice-series'],
    queryFn: ({ signal }) => api<InvoiceSeriesCounters>('/me/invoice-series', { signal }),
    staleTime: 0,
  });
