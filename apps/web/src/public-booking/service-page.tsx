import { useState } from 'react';
import { bookingApi, type ServiceIds } from './api';
import { BookingFlow } from './booking-flow';
import { messageOf } from './errors';
import { visitorTimeZone } from '../public-kit/format';
import { PageFrame } from './frame';
import { hrefOf } from './router';
import { ServiceFacts } from './service-card';
import { Alert, ErrorState, FocusHeading, Link, PageSkeleton } from './ui';
import { useLoad } from '../public-kit/use-load';

// «Cambiar fecha» of the manage link (manage-move.tsx) takes its slots from here: Rollup then keeps
// this page and the calendar in one chunk instead of three (scripts/bundle-report.mjs).
export { useMonthSlots } from './use-month-slots';

/** Back from the payments gateway's checkout (`?pago=completado|cancelado`), what happened, in words. */
const PAYMENT_RETURN: Record<string, { tone: 'info' | 'warning'; text: string }> = {
  completado: {
    tone: 'info',
    text: 'Pago recibido. En unos segundos te llegará por email la confirmación de la reserva, con un enlace para cancelarla o cambiarla.',
  },
  cancelado: {
    tone: 'warning',
    text: 'No se ha completado el pago, así que la reserva no está hecha. La hora que elegiste vuelve a quedar libre en unos minutos; puedes elegir otra.',
  },
};

/** `/v1/reservations/:workspaceId/:therapistId/:serviceId`: what the service is, then its booking. */
export function ServicePage(ids: ServiceIds) {
  const [paid] = useState(() => PAYMENT_RETURN[new URLSearchParams(window.location.search).get('pago') ?? '']);
  const page = useLoad(`sv:${ids.workspaceId}/${ids.therapistId}/${ids.serviceId}`, (signal) => bookingApi.service(ids, signal));
  const [zone] = useState(visitorTimeZone);
  const data = page.data;
  return (
    <PageFrame workspace={data?.workspace ?? null} title={data?.service.title ?? 'Reserva online'}>
      {page.failure ? (
        <ErrorState
          title={page.failure.status === 404 ? 'Este servicio no admite reservas' : undefined}
          message={messageOf(page.failure)}
          retry={page.failure.status === 404 ? undefined : page.retry}
        />
      ) : !data ? (
        <PageSkeleton />
      ) : (
        <>
          <header className="grid gap-3">
            <Link href={hrefOf(ids.workspaceId, ids.therapistId)} className="w-fit text-[0.9375rem]">
              ‹ {data.therapist.name}
            </Link>
            <FocusHeading>{data.service.title}</FocusHeading>
            <ServiceFacts service={data.service} />
            {data.service.description ? (
              <p className="whitespace-pre-line text-[0.9375rem] leading-relaxed text-muted-foreground">{data.service.description}</p>
            ) : null}
            {!data.service.allowNewPatients ? (
              <Alert tone="warning">
                Este servicio es solo para pacientes que ya están en consulta con {data.therapist.name}. Si todavía no lo eres, escríbele
                para pedir cita.
              </Alert>
            ) : null}
          </header>
          {paid ? <Alert tone={paid.tone}>{paid.text}</Alert> : null}
          <BookingFlow ids={ids} page={data} visitorZone={zone} />
        </>
      )}
    </PageFrame>
  );
}
