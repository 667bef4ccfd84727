import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  createInvoiceBody,
  Invoice,
  invoiceListResponse,
  InvoiceListQuery,
  PaymentType,
  RectificationMethod,
  rectifyInvoiceBody,
  updateInvoiceBody,
} from '@divan/core';
import { api } from '@/lib/api-client';
import type { Query } from '@/lib/http';
import { workspaceKey } from '@/lib/workspace-keys';
import { invoiceKeys, invoicePath, invoicesPath } from './keys';

export type InvoiceList = z.infer<typeof invoiceListResponse>;
export type InvoiceSummary = InvoiceList['items'][number];
export type CreateInvoice = z.input<typeof createInvoiceBody>;
export type UpdateInvoice = z.input<typeof updateInvoiceBody>;

export const invoiceListOptions = (wid: string, query: Partial<InvoiceListQuery>) =>
  queryOptions({
    queryKey: invoiceKeys.list(wid, query),
    queryFn: ({ signal }) => api<InvoiceList>(invoicesPath(wid), { query: query as Query, signal }),
    // Paging and filtering keep the previous page on screen instead of flashing a skeleton.
    placeholderData: keepPreviousData,
  });

export const useInvoiceList = (wid: string, query: Partial<InvoiceListQuery>, enabled = true) =>
  useQuery({ ...invoiceListOptions(wid, query), enabled });

export const invoiceOptions = (wid: string, id: string) =>
  queryOptions({ queryKey: invoiceKeys.detail(wid, id), queryFn: ({ signal }) => api<Invoice>(invoicePath(wid, id), { signal }) });

export const useInvoice = (wid: string, id: string | null) => useQuery({ ...invoiceOptions(wid, id ?? ''), enabled: !!id });

/**
 * Any write: the invoice's detail is replaced, and every list refetches (totals, order); sessions too,
 * since drafts and cancellations change which sessions are invoiced.
 */
function useInvoiceWrite<V>(wid: string, fn: (vars: V) => Promise<Invoice>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (invoice) => {
      qc.setQueryData(invoiceKeys.detail(wid, invoice.id), invoice);
      void qc.invalidateQueries({ queryKey: invoiceKeys.lists(wid) });
      void qc.invalidateQueries({ queryKey: workspaceKey(wid, 'sessions') });
    },
  });
}

export const useCreateInvoice = (wid: string) =>
  useInvoiceWrite(wid, (body: CreateInvoice) => api<Invoice>(invoicesPath(wid), { method: 'POST', body }));

export const useUpdateInvoice = (wid: string) =>
  useInvoiceWrite(wid, ({ id, body }: { id: string; body: UpdateInvoice }) =>
    api<Invoice>(invoicePath(wid, id), { method: 'PATCH', body }),
  );

export const useIssueInvoice = (wid: string) =>
  useInvoiceWrite(wid, (id: string) => api<Invoice>(`${invoicePath(wid, id)}/issue`, { method: 'POST' }));

export const usePayInvoice = (wid: string) =>
  useInvoiceWrite(wid, ({ id, paymentType, paidOn }: { id: string; paymentType: PaymentType; paidOn?: string }) =>
    api<Invoice>(`${invoicePath(wid, id)}/payment`, { method: 'POST', body: paidOn ? { paymentType, paidOn } : { paymentType } }),
  );

export type RectifyLines = NonNullable<z.input<typeof rectifyInvoiceBody>['lines']>;
type RectifyVars = { id: string; method: RectificationMethod; reason: string; lines?: RectifyLines };

/** Answers the rectifying invoice (issued at once); the original's detail refetches. */
export function useRectifyInvoice(wid: string) {
  const qc = useQueryClient();
  const write = useInvoiceWrite(wid, ({ id, method, reason, lines = [] }: RectifyVars) =>
    api<Invoice>(`${invoicePath(wid, id)}/rectify`, { method: 'POST', body: { method, reason, lines } }),
  );
  return {
    ...write,
    mutateAsync: async (vars: RectifyVars) => {
      const rectifying = await write.mutateAsync(vars);
      void qc.invalidateQueries({ queryKey: invoiceKeys.detail(wid, vars.id) });
      return rectifying;
    },
  };
}

/** «Anular»: the invoice keeps its number and is marked voided, with its VERI*FACTU cancellation record. */
export const useVoidInvoice = (wid: string) =>
  useInvoiceWrite(wid, ({ id, reason }: { id: string; reason: string }) =>
    api<Invoice>(`${invoicePath(wid, id)}/void`, { method: 'POST', body: { reason } }),
  );

export function useDeleteInvoice(wid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<null>(invoicePath(wid, id), { method: 'DELETE' }),
    onSuccess: (_r, id) => {
      qc.removeQueries({ queryKey: invoiceKeys.detail(wid, id) });
      void qc.invalidateQueries({ queryKey: invoiceKeys.lists(wid) });
      void qc.invalidateQueries({ queryKey: workspaceKey(wid, 'sessions') });
    },
  });
}

/**
 * The invoices that rectify this one. The API answers only the other direction (`rectifies`), so they
 * are found among the issued invoices of the same patient (or of everyone, without a patient).
 */
export function useRectifyingInvoices(wid: string, invoice: Invoice | undefined) {
  const enabled = !!invoice && invoice.status === 'issued' && invoice.kind === 'ordinary';
  const query: Partial<InvoiceListQuery> = { status: 'issued', patientId: invoice?.patient?.id, pageSize: 200, page: 1 };
  return useQuery({
    ...invoiceListOptions(wid, query),
    enabled,
    placeholderData: undefined,
    select: (r) => r.items.filter((i) => i.rectifies?.id === invoice?.id),
  });
}

/** The series of the member's invoices, for the list's filter. */
export const useInvoiceSeries = (wid: string) =>
  useQuery({
    queryKey: [...invoiceKeys.lists(wid), 'series'],
    queryFn: ({ signal }) => api<{ items: string[] }>(`${invoicesPath(wid)}/series`, { signal }),
    select: (r) => r.items,
  });
