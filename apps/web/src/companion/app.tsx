import { lazy, type ReactNode } from 'react';
import { AppFrame } from '../public-kit/app-frame';
import { ConnectPage } from './connect-page';
import { PageFrame } from './frame';
import { HomePage } from './home-page';
import { useLiveConnection } from './live';
import { useRoute } from './nav';
import { hrefOf } from './router';
import { useSession } from './session';
import { ErrorState, Link, ListSkeleton } from './ui';

// A file's page (chat and the rest) loads with its route: the first screen («Entrar», the files) stays light.
const FilePage = lazy(() => import('./file-page').then((m) => ({ default: m.FilePage })));
// A mailed measure (issue 32) brings its instruments' texts: loaded only on its link.
const MeasurePage = lazy(() => import('./measure-page').then((m) => ({ default: m.MeasurePage })));

/** The patient's companion, by pathname (router.ts). */
export function CompanionApp() {
  const route = useRoute();
  const session = useSession();
  useLiveConnection();
  let page: ReactNode;
  switch (route.name) {
    case 'home':
      page = <HomePage />;
      break;
    case 'connect':
      page = <ConnectPage key={route.token} token={route.token} />;
      break;
    case 'measure':
      page = <MeasurePage key={route.token} token={route.token} />;
      break;
    case 'file':
      page = session ? <FilePage key={route.fileId} fileId={route.fileId} section={route.section} /> : <HomePage />;
      break;
    default:
      return (
        <PageFrame title="Página no encontrada">
          <ErrorState title="Página no encontrada" message="Esta dirección no corresponde a ninguna página de Diván." />
          <Link href={hrefOf()}>Ir al inicio</Link>
        </PageFrame>
      );
  }
  return (
    <AppFrame frame={(children) => <PageFrame title="Diván">{children}</PageFrame>} loading={<ListSkeleton rows={3} />}>
      {page}
    </AppFrame>
  );
}
