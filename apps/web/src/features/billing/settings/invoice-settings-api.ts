import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InvoiceSettings } from '@divan/core';
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
