import { canAny, canOn, type AppAbility, type Invoice } from '@divan/core';
import { useAbility } from '@/lib/ability';
import { useAuthStore } from '@/stores/auth-store';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';

type Act = 'read' | 'create' | 'update' | 'delete';

/** As the server decides (invoices.service mayAct): the workspace's invoices by `workspace_invoices`, a therapist's by `invoices`. */
export function mayAct(ability: AppAbility, action: Act, invoice: Pick<Invoice, 'sellerType' | 'therapist'>): boolean {
  return invoice.sellerType === 'workspace'
    ? ability.can(action, 'workspace_invoices')
    : canOn(ability, action, 'invoices', { ownerId: invoice.therapist.id });
}

/** The workspace the billing screens work in, and what the member may do there. */
export function useBillingScope() {
  const workspace = useCurrentWorkspace();
  const ability = useAbility();
  const userId = useAuthStore((s) => s.userId) ?? '';
  return {
    workspace,
    ready: isRealWorkspace(workspace.id),
    wid: workspace.id,
    ability,
    userId,
    canRead: canAny(ability, 'read', 'invoices') || ability.can('read', 'workspace_invoices'),
    canCreate: canAny(ability, 'create', 'invoices') || ability.can('create', 'workspace_invoices'),
  };
}
