import { lazy, type ReactNode } from 'react';
import { AppFrame } from '../public-kit/app-frame';
import { useRoute } from './nav';
import { PageFrame } from './frame';
import { TherapistPage } from './therapist-page';
import { ErrorState, PageSkeleton } from './ui';
import { WorkspacePage } from './workspace-page';

// The calendar and the manage link load with their own page: the index and a therapist's page stay light.
const ServicePage = lazy(() => import('./service-page').then((m) => ({ default: m.ServicePage })));
const ManagePage = lazy(() => import('./manage-page').then((m) => ({ default: m.ManagePage })));

/** The public booking pages, by pathname (router.ts). Each page is keyed by its ids: a new address starts fresh. */
export function BookingApp() {
  const route = useRoute();
  let page: ReactNode;
  switch (route.name) {
    case 'workspace':
      page = <WorkspacePage key={route.workspaceId} workspaceId={route.workspaceId} />;
      break;
    case 'therapist':
      page = (
        <TherapistPage key={`${route.workspaceId}/${route.therapistId}`} workspaceId={route.workspaceId} therapistId={route.therapistId} />
      );
      break;
    case 'service':
      page = (
        <ServicePage
          key={`${route.workspaceId}/${route.therapistId}/${route.serviceId}`}
          workspaceId={route.workspaceId}
          therapistId={route.therapistId}
          serviceId={route.serviceId}
        />
      );
      break;
    case 'manage':
      page = <ManagePage key={route.token} token={route.token} />;
      break;
    default:
      return (
        <PageFrame workspace={null} title="Página no encontrada">
          <ErrorState
            title="Página no encontrada"
            message="Esta dirección no corresponde a ninguna página de reservas. Comprueba el enlace que te han enviado."
          />
        </PageFrame>
      );
  }
  return (
    <AppFrame
      frame={(children) => (
        <PageFrame workspace={null} title="Reserva online">
          {children}
        </PageFrame>
      )}
      loading={<PageSkeleton />}
    >
      {page}
    </AppFrame>
  );
}
