import { bookingApi } from './api';
import { messageOf } from './errors';
import { PageFrame } from './frame';
import { hrefOf } from './router';
import { ServiceCard, TherapistHeader } from './service-card';
import { ErrorState, Link, PageSkeleton } from './ui';
import { useLoad } from '../public-kit/use-load';

/** `/v1/reservations/:workspaceId/:therapistId`: one therapist, their biography and services. */
export function TherapistPage({ workspaceId, therapistId }: { workspaceId: string; therapistId: string }) {
  const page = useLoad(`th:${workspaceId}/${therapistId}`, (signal) => bookingApi.therapist(workspaceId, therapistId, signal));
  const data = page.data;
  return (
    <PageFrame workspace={data?.workspace ?? null} title={data?.therapist.name ?? 'Reserva online'}>
      {page.failure ? (
        <ErrorState
          title={page.failure.status === 404 ? 'Esta página de reservas no existe' : undefined}
          message={messageOf(page.failure)}
          retry={page.failure.status === 404 ? undefined : page.retry}
        />
      ) : !data ? (
        <PageSkeleton />
      ) : (
        <>
          <Link href={hrefOf(workspaceId)} className="w-fit text-[0.9375rem]">
            ‹ Todos los profesionales
          </Link>
          <TherapistHeader therapist={data.therapist} level={1} />
          <section aria-labelledby="services-title" className="grid gap-3">
            <h2 id="services-title" className="font-display text-xl font-semibold tracking-tight">
              Servicios
            </h2>
            {data.therapist.services.length ? (
              <ul className="grid gap-3 sm:grid-cols-2">
                {data.therapist.services.map((s) => (
                  <ServiceCard key={s.id} workspaceId={workspaceId} therapistId={therapistId} service={s} />
                ))}
              </ul>
            ) : (
              <p role="status" className="rounded-xl border bg-card p-6 text-[0.9375rem] text-muted-foreground">
                {data.therapist.name} no tiene ahora servicios con reserva online.
              </p>
            )}
          </section>
        </>
      )}
    </PageFrame>
  );
}
