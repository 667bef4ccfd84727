import { useAbility } from '@/lib/ability';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';

/** The workspace the consent screens work in, and what the member may do with its templates and sent consents. */
export function useConsentsScope() {
  const workspace = useCurrentWorkspace();
  const ability = useAbility();
  return {
    workspace,
    wid: workspace.id,
    ready: isRealWorkspace(workspace.id),
    canRead: ability.can('read', 'consent_templates'),
    canCreate: ability.can('create', 'consent_templates'),
    canUpdate: ability.can('update', 'consent_templates'),
    canDelete: ability.can('delete', 'consent_templates'),
    /** Sent consents (`sent_consents`; an «own» rule still says yes here, the server checks each one). */
    canReadSent: ability.can('read', 'sent_consents'),
    canSend: ability.can('create', 'sent_consents'),
    canRevoke: ability.can('update', 'sent_consents'),
  };
}
