import type { InvoiceListQuery } from '@divan/core';
import { workspaceKey } from '@/lib/workspace-keys';

/** Every key starts with the workspace (`workspaceKey`): switching workspace never shows another one's invoices. */
export const invoiceKeys = {
  all: (wid: string) => workspaceKey(wid, 'invoices'),
  lists: (wid: string) => [...invoiceKeys.all(wid), 'list'] as const,
  list: (wid: string, query: Partial<InvoiceListQuery>) => [...invoiceKeys.lists(wid), query] as const,
  detail: (wid: string, id: string) => [...invoiceKeys.all(wid), 'detail', id] as const,
  /** Under the calendar's prefix: a session changed anywhere refreshes what can be invoiced. */
  billableSessions: (wid: string, pid: string) => [...workspaceKey(wid, 'sessions'), 'billable', pid] as const,
  members: (wid: string) => workspaceKey(wid, 'members'),
};

/** The therapist's own billing data is theirs, not a workspace's. */
export const myBillingKey = ['me', 'billing'] as const;

export const invoicesPath = (wid: string) => `/workspaces/${wid}/invoices`;
export const invoicePath = (wid: string, id: string) => `${invoicesPath(wid)}/${id}`;
