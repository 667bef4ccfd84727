import { Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { DEFAULT_TIME_ZONE, todayIn } from '@divan/core';
import { NoAccess } from '@/components/ui/no-access';
import { PageSpinner } from '@/components/ui/spinner';
import { usePageTitle } from '@/lib/use-page-title';
import { useBookingScope } from './api/use-booking-scope';
import { BlockedDays } from './blocked/blocked-days';
import { EMBED_SECTION_ID, EmbedSection } from './embed/embed-section';
import { ServicesList } from './services/services-list';

/** `/calendar/services`: open booking setup — the services patients book online and the blocked days. */
export function BookingServicesRoute() {
  usePageTitle('Reserva online');
  const scope = useBookingScope();
  if (!scope.ready) return <PageSpinner />;
  return (
    <div className="mx-auto grid w-full max-w-4xl grid-cols-[minmax(0,1fr)] gap-8" key={scope.wid}>
      <header className="grid gap-1">
        <Link
          to="/calendar"
          className="inline-flex items-center gap-1 justify-self-start text-sm text-muted-foreground hover:text-foreground"
        >
          <ArrowLeft className="size-4" aria-hidden /> Calendario
        </Link>
        <h1 className="font-display text-3xl font-semibold tracking-tight">Reserva online</h1>
        <p className="text-sm text-muted-foreground">
          Los servicios que tus pacientes reservan desde tu página pública, con su horario, y los días en que no atiendes.
        </p>
        {scope.canRead ? (
          <a
            href={`#${EMBED_SECTION_ID}`}
            className="justify-self-start text-sm font-medium text-primary underline-offset-4 hover:underline"
          >
            Insertar en tu web
          </a>
        ) : null}
      </header>
      {scope.canRead ? <ServicesList /> : <NoAccess title="No puedes ver los servicios de reserva de este espacio" />}
      {scope.canReadBlocked ? <BlockedDays today={todayIn(DEFAULT_TIME_ZONE)} /> : null}
      {scope.canRead ? <EmbedSection /> : null}
    </div>
  );
}

export { BookingServicesRoute as Component };
