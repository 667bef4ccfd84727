import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Pack } from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey } from '@/lib/workspace-keys';
import { invoiceKeys } from '../api/keys';

const packsPath = (wid: string, pid: string) => `/workspaces/${wid}/patients/${pid}/packs`;
/** Under the invoices' key: selling or refunding a pack issues invoices, and a paid invoice refreshes its pack. */
export const packsKey = (wid: string, pid: string) => [...invoiceKeys.all(wid), 'packs', pid] as const;

/** Completed sessions consume packs: a session changed anywhere refreshes the counts too. */
export const usePacks = (wid: string, pid: string, enabled = true) =>
  useQuery({ queryKey: packsKey(wid, pid), queryFn: ({ signal }) => api<{ items: Pack[] }>(packsPath(wid, pid), { signal }), enabled });

export type SellPack = { sessionsTotal: number; priceCents: number; name?: string; expiresOn?: string | null };

function usePackWrite<V>(wid: string, pid: string, fn: (v: V) => Promise<Pack>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: invoiceKeys.all(wid) });
      void qc.invalidateQueries({ queryKey: workspaceKey(wid, 'sessions') });
    },
  });
}

export const useSellPack = (wid: string, pid: string) =>
  usePackWrite(wid, pid, (body: SellPack) => api<Pack>(packsPath(wid, pid), { method: 'POST', body }));
export const useRefundPack = (wid: string, pid: string) =>
  usePackWrite(wid, pid, ({ packId, reason }: { packId: string; reason: string }) =>
    api<Pack>(`${packsPath(wid, pid)}/${packId}/refund`, { method: 'POST', body: { reason } }),
  );
