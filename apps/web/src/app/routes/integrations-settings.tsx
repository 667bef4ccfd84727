import { CalendarFeedCard } from '@/features/calendar-feed/components/calendar-feed-card';
import { GoogleCalendarCard } from '@/features/google-calendar/components/google-calendar-card';
import { usePageTitle } from '@/lib/use-page-title';
import { useCurrentWorkspace } from '@/stores/workspaces-store';

/** Settings `integrations`: what connects Diván to other tools (Google Calendar, the private calendar feed). */
export function IntegrationsSettingsRoute() {
  usePageTitle('Integraciones');
  const workspace = useCurrentWorkspace();
  return (
    <div className="grid gap-6">
      <GoogleCalendarCard key={`google-${workspace.id}`} workspaceId={workspace.id} />
      <CalendarFeedCard key={workspace.id} workspaceId={workspace.id} workspaceName={workspace.name} />
    </div>
  );
}

export { IntegrationsSettingsRoute as Component };
