import { Link, useNavigate } from 'react-router';
import { ArrowLeft, House } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ErrorScreen } from '../components/error-screen';
import { usePageTitle } from '@/lib/use-page-title';

export function NotFoundRoute() {
  usePageTitle('Página no encontrada');
  const navigate = useNavigate();
  return (
    <ErrorScreen
      code="404"
      title="No encontramos esta página"
      actions={
        <>
          <Button variant="outline" onClick={() => void navigate(-1)}>
            <ArrowLeft aria-hidden /> Volver atrás
          </Button>
          <Button asChild>
            <Link to="/">
              <House aria-hidden /> Ir al inicio
            </Link>
          </Button>
        </>
      }
    >
      Puede que el enlace esté mal escrito o que la página ya no exista.
    </ErrorScreen>
  );
}

export { NotFoundRoute as Component };
