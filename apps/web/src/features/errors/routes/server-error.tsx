import { useEffect } from 'react';
import { useNavigate, useRouteError } from 'react-router';
import { ArrowLeft, RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ErrorScreen } from '../components/error-screen';
import { usePageTitle } from '@/lib/use-page-title';
import { isStaleChunk, reloadOnce } from '@/lib/stale-chunk';

export function ServerErrorRoute() {
  usePageTitle('Error inesperado');
  const navigate = useNavigate();
  return (
    <ErrorScreen
      code="500"
      title="Algo ha salido mal"
      actions={
        <>
          <Button variant="outline" onClick={() => void navigate(-1)}>
            <ArrowLeft aria-hidden /> Volver atrás
          </Button>
          <Button onClick={() => window.location.reload()}>
            <RotateCw aria-hidden /> Recargar
          </Button>
        </>
      }
    >
      Ha ocurrido un error inesperado. Tus datos están a salvo; vuelve atrás o recarga la página.
    </ErrorScreen>
  );
}

/** The router's errorElement: any render or loader error lands here instead of React Router's default. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const stale = isStaleChunk(error);
  useEffect(() => {
    if (stale) reloadOnce();
  }, [stale]);
  useEffect(() => {
    if (!stale) console.error(error);
  }, [error, stale]);
  return <ServerErrorRoute />;
}

export { ServerErrorRoute as Component };
