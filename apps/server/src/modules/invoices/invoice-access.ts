import { canOn, scopeFor, type Action } from '@divan/core';
import type { Caller } from '../../platform/auth/caller';
import type { InvoiceScope } from './invoices.repository';
import type { InvoiceRow } from './invoices.tables';

/** Which invoices the member reads: see InvoiceScope. */
export function invoiceScope(c: Caller): InvoiceScope {
  return {
    therapist: scopeFor(c.member.ability, 'read', 'invoices', c.userId),
    workspace: c.member.ability.can('read', 'workspace_invoices'),
  };
}

/** Whether the member may do `action` on an invoice: the workspace's need `workspace_invoices`, a therapist's `invoices` (maybe only their own). */
export function mayAct(c: Caller, action: Exclude<Action, 'manage'>, inv: Pick<InvoiceRow, 'sellerType' | 'ownerId'>) {
  return inv.sellerType === 'workspace'
    ? c.member.ability.can(action, 'workspace_invoices')
    : canOn(c.member.ability, action, 'invoices', { ownerId: inv.ownerId });
}
