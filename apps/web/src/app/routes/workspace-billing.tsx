import { WorkspaceBillingRoute } from '@/features/workspaces/routes/workspace-billing';
import { PaymentAccountCard } from '@/features/billing/payments/components/payment-account-card';
import { useAbility } from '@/lib/ability';
import { useCurrentWorkspace } from '@/stores/workspaces-store';

/** The workspace's billing settings (workspaces feature) with its Stripe account (billing feature), composed here. */
export function WorkspaceBillingPage() {
  const ws = useCurrentWorkspace();
  const ability = useAbility();
  return (
    <WorkspaceBillingRoute>
      <PaymentAccountCard
        key={ws.id}
        holder={{ kind: 'workspace', workspaceId: ws.id }}
        canEdit={ability.can('update', 'workspace_billing')}
        description={`La cuenta de «${ws.name}», para cobrar con tarjeta las facturas que emite el espacio (por enlace de pago). Las de cada terapeuta se cobran con su propia cuenta.`}
      />
    </WorkspaceBillingRoute>
  );
}

export { WorkspaceBillingPage as Component };
