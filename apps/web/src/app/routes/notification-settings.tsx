import { NotificationSettingsRoute } from '@/features/notifications/routes/notification-settings';
import { OfficeHoursCard } from '@/features/chat/settings/office-hours-card';

/** Settings → Notificaciones: the reminders and notices (notifications feature), then the chat's office hours (chat feature), composed here. */
export function NotificationSettingsScreen() {
  return (
    <div className="grid gap-6">
      <NotificationSettingsRoute />
      <OfficeHoursCard />
    </div>
  );
}

export { NotificationSettingsScreen as Component };
