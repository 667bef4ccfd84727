import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InvoiceBatchBody, InvoiceBatchPreview, InvoiceBatchStatus as InvoiceBatch } from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey } from '@/lib/workspace-keys';
import { invoiceKeys } from './keys';

export type BatchPreview = InvoiceBatchPreview;

const batchesPath = (wid: string) => `/workspaces/${wid}/invoice-batches`;

/** What a batch would issue for a period: nothing is written. */
export const usePreviewBatch = (wid: string) =>
  useMutation({ mutationFn: (body: InvoiceBatchBody) => api<BatchPreview>(`${batchesPath(wid)}/preview`, { method: 'POST', body }) });

/** Queues the batch; the job issues it while the screen polls its progress. */
export const useCreateBatch = (wid: string) =>
  useMutation({ mutationFn: (body: InvoiceBatchBody) => api<InvoiceBatch>(batchesPath(wid), { method: 'POST', body }) });

const finished = (b: InvoiceBatch | undefined) => b?.status === 'done' || b?.status === 'failed';

/** A batch, polled twice a second until it is done or failed; then the invoices and sessions refresh. */
export function useBatch(wid: string, id: string | null) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: [...invoiceKeys.all(wid), 'batch', id ?? ''],
    enabled: !!id,
    queryFn: async ({ signal }) => {
      const batch = await api<InvoiceBatch>(`${batchesPath(wid)}/${id}`, { signal });
      if (finished(batch)) {
        void qc.invalidateQueries({ queryKey: invoiceKeys.lists(wid) });
        void qc.invalidateQueries({ queryKey: workspaceKey(wid, 'sessions') });
      }
      return batch;
    },
    refetchInterval: (q) => (finished(q.state.data) ? false : 500),
  });
}
