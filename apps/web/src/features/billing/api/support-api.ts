import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type FeeBalance,
  type Member,
  type Patient,
  type PatientSessions,
  type Session,
  type TherapistBilling,
  type VerifactuStatus,
} from '@divan/core';
import { api } from '@/lib/api-client';
import { downloadFile as download } from '@/lib/file-transfer';
import type { Query } from '@/lib/http';
import type { z } from 'zod';
import type { therapistBillingBody } from '@divan/core';
import { invoiceKeys, invoicePath, myBillingKey } from './keys';

/** Accepted members, for the therapist filter of a team. */
export function useTherapists(wid: string, enabled: boolean) {
  return useQuery({
    queryKey: invoiceKeys.members(wid),
    queryFn: ({ signal }) => api<Member[]>(`/workspaces/${wid}/members`, { signal }),
    enabled,
    staleTime: 5 * 60_000,
    select: (members) =>
      members
        .filter((m): m is Member & { userId: string } => m.kind === 'member' && m.status === 'active' && !!m.userId)
        .map((m) => ({ id: m.userId, name: [m.firstName, m.lastName].filter(Boolean).join(' ') || m.email }))
        .sort((a, b) => a.name.localeCompare(b.name, 'es')),
  });
}

/** Pages read at most: 10 × 25 sessions, newest first, is well beyond what waits to be invoiced. */
const MAX_PAGES = 10;

/**
 * The patient's completed sessions, newest first, through the sessions tab's API (GET
 * …/patients/:id/sessions, 25 a page): the invoice editor offers those not invoiced yet.
 */
export const usePatientCompletedSessions = (wid: string, pid: string | null) =>
  useQuery({
    queryKey: invoiceKeys.billableSessions(wid, pid ?? ''),
    enabled: !!pid,
    queryFn: async ({ signal }) => {
      const found: Session[] = [];
      for (let page = 1; page <= MAX_PAGES; page++) {
        const r = await api<PatientSessions>(`/workspaces/${wid}/patients/${pid}/sessions`, { query: { page }, signal });
        found.push(...r.items.filter((s) => s.status === 'completed'));
        if (page * r.pageSize >= r.totals.total) break;
      }
      return found;
    },
  });

/** A patient's id and name, to start an invoice for them (an unknown or unreadable id starts an empty one). */
export const usePatientRef = (wid: string, pid: string | null) =>
  useQuery({
    queryKey: [...invoiceKeys.all(wid), 'patient-ref', pid ?? ''],
    enabled: !!pid,
    retry: false,
    queryFn: async ({ signal }) => {
      const p = await api<Pick<Patient, 'id' | 'firstName' | 'lastName'>>(`/workspaces/${wid}/patients/${pid}`, { signal });
      return { id: p.id, name: [p.firstName, p.lastName].filter(Boolean).join(' ') };
    },
  });

export type BillingBody = z.input<typeof therapistBillingBody>;

export const useMyBilling = () =>
  useQuery({ queryKey: myBillingKey, queryFn: ({ signal }) => api<TherapistBilling>('/me/billing', { signal }) });

export function useUpdateMyBilling() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BillingBody) => api<TherapistBilling>('/me/billing', { method: 'PUT', body }),
    onSuccess: (data) => qc.setQueryData(myBillingKey, data),
  });
}

/** The invoice's PDF. */
export const downloadInvoicePdf = (wid: string, invoice: { id: string; number: string | null }) =>
  download(`${invoicePath(wid, invoice.id)}/pdf`, `factura-${invoice.number ?? invoice.id}.pdf`);

/** The issued invoices of the list's filters, for the accountant (xlsx or CSV). */
export const downloadInvoiceExport = (wid: string, query: Query, format: 'xlsx' | 'csv') =>
  download(`/workspaces/${wid}/invoices/export`, `facturas.${format}`, { ...query, page: undefined, pageSize: undefined, format });

/** The VERI*FACTU records of the member's own tax id (else the workspace's) for a period, as the AEAT's XML. */
export const downloadVerifactuXml = (wid: string, period: { from?: string; to?: string }) =>
  download(`/workspaces/${wid}/invoices/verifactu`, 'verifactu.xml', period);

/** Where the invoice's records are in their way to the AEAT (when this server sends them). */
export const useVerifactuStatus = (wid: string, invoiceId: string) =>
  useQuery({
    queryKey: [...invoiceKeys.detail(wid, invoiceId), 'verifactu-status'],
    queryFn: ({ signal }) => api<VerifactuStatus>(`${invoicePath(wid, invoiceId)}/verifactu-status`, { signal }),
    // A record waits for the AEAT: look again now and then while the screen is open.
    refetchInterval: (q) => (q.state.data?.records.some((r) => r.state === 'pending') ? 30_000 : false),
  });

/** The fee balance of a period (workspaces): per therapist, fees, who collected and what is owed. */
export const useFeeBalance = (wid: string, range: { from: string; to: string } | null) =>
  useQuery({
    queryKey: [...invoiceKeys.all(wid), 'fee-balance', range?.from ?? '', range?.to ?? ''],
    enabled: !!range,
    queryFn: ({ signal }) => api<FeeBalance>(`/workspaces/${wid}/fee-balance`, { query: { ...range }, signal }),
    placeholderData: keepPreviousData,
  });

/** The same, as the accountant's CSV. */
export const downloadFeeBalanceCsv = (wid: string, range: { from: string; to: string }) =>
  download(`/workspaces/${wid}/fee-balance`, 'saldo-honorarios.csv', { ...range, format: 'csv' });
