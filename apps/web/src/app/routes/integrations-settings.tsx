import { CalendarFeedCard } from '@/features/calendar-feed/components/calendar-feed-card';
import { usePageTitle } from '@/lib/use-page-title';
import { useCurrentWorkspace } from '@/stores/workspaces-store';

/** Settings `integrations`: what connects Diván to other tools (for now, the private calendar feed). */
export function IntegrationsSettingsRoute() {
  usePageTitle('Integraciones');
  const workspace = useCurrentWorkspace();
  return (
    <div className="grid gap-6">
      <CalendarFeedCard key={workspace.id} workspaceId={workspace.id} workspaceName={workspace.name} />
    </div>
  );
}

export { IntegrationsSettingsRoute as Component };
