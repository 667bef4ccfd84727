import { Link } from 'react-router';
import { House } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ErrorScreen } from '../components/error-screen';
import { usePageTitle } from '@/lib/use-page-title';

export function UnavailableRoute() {
  usePageTitle('Servicio no disponible');
  return (
    <ErrorScreen
      code="503"
      title="Volvemos enseguida"
      actions={
        <Button asChild>
          <Link to="/">
            <House aria-hidden /> Ir al inicio
          </Link>
        </Button>
      }
    >
      Diván no está disponible en este momento, probablemente por tareas de mantenimiento. Inténtalo de nuevo en unos minutos.
    </ErrorScreen>
  );
}

export { UnavailableRoute as Component };
