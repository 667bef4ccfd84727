import { bookingApi } from './api';
import { messageOf } from './errors';
import { PageFrame } from './frame';
import { hrefOf } from './router';
import { ServiceCard, TherapistHeader } from './service-card';
import { ErrorState, FocusHeading, PageSkeleton } from './ui';
import { useLoad } from '../public-kit/use-load';

/** `/v1/reservations/:workspaceId`: the workspace's therapists, each with their services. */
export function WorkspacePage({ workspaceId }: { workspaceId: string }) {
  const page = useLoad(`ws:${workspaceId}`, (signal) => bookingApi.workspace(workspaceId, signal));
  const ws = page.data?.workspace ?? null;
  return (
    <PageFrame workspace={ws} title="Reserva online">
      {page.failure ? (
        <ErrorState
          title={page.failure.status === 404 ? 'Esta página de reservas no existe' : undefined}
          message={messageOf(page.failure)}
          retry={page.failure.status === 404 ? undefined : page.retry}
        />
      ) : !page.data ? (
        <PageSkeleton />
      ) : (
        <>
          <div className="grid gap-1">
            <FocusHeading>Reserva tu cita</FocusHeading>
            <p className="text-[0.9375rem] text-muted-foreground">Elige con quién y qué tipo de sesión; después, el día y la hora.</p>
          </div>
          {page.data.therapists.length === 0 ? (
            <p role="status" className="rounded-xl border bg-card p-6 text-[0.9375rem] text-muted-foreground" data-testid="no-therapists">
              {ws?.name ?? 'Esta consulta'} todavía no ofrece reservas online. Vuelve más adelante o contacta directamente con la consulta.
            </p>
          ) : (
            <ul className="grid gap-8">
              {page.data.therapists.map((t) => (
                <li key={t.id} className="grid gap-4" data-testid="therapist">
                  <TherapistHeader therapist={t} href={hrefOf(workspaceId, t.id)} />
                  <ul className="grid gap-3 sm:grid-cols-2">
                    {t.services.map((s) => (
                      <ServiceCard key={s.id} workspaceId={workspaceId} therapistId={t.id} service={s} />
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </PageFrame>
  );
}
