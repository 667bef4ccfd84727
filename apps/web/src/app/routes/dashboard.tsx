import { Alert } from '@/components/ui/alert';
import { PageSpinner } from '@/components/ui/spinner';
import { DashboardView } from '@/features/dashboard/components/dashboard-view';
import { useMe } from '@/features/profile/api/profile-api';
import { usePageTitle } from '@/lib/use-page-title';

export function DashboardRoute() {
  usePageTitle('Inicio');
  const me = useMe();
  if (me.data) return <DashboardView profile={me.data} />;
  if (me.isError) return <Alert variant="error">{me.error.message}</Alert>;
  return <PageSpinner />;
}

export { DashboardRoute as Component };
