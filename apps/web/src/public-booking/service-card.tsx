import { useEffect, useRef } from 'react';
import type { PublicServiceSummary, PublicTherapist } from '@divan/core';
import { formatDuration } from '../public-kit/format';
import { formatPrice } from './format';
import { hrefOf } from './router';
import { Initial, Link, cx } from './ui';

/** 'Online' or 'Presencial · Consulta Centro, Calle Mayor 1'. */
export function modalityText(modality: 'presential' | 'online', location: { name: string; address: string | null } | null): string {
  if (modality === 'online') return 'Online (videollamada)';
  if (!location) return 'Presencial';
  return `Presencial · ${location.name}${location.address ? `, ${location.address}` : ''}`;
}

/** What a service is: 50 min · 60,00 €, then where (Online, or Presencial and the place). */
export function ServiceFacts({
  service,
  className,
}: {
  service: Pick<PublicServiceSummary, 'durationMinutes' | 'priceCents' | 'modality' | 'location' | 'payment'>;
  className?: string;
}) {
  return (
    <ul className={cx('flex flex-wrap gap-x-3 gap-y-1 text-[0.875rem] text-muted-foreground', className)}>
      <li>{formatDuration(service.durationMinutes)}</li>
      <li aria-hidden>·</li>
      <li className="font-medium text-foreground">{formatPrice(service.priceCents)}</li>
      <li className="basis-full">{modalityText(service.modality, service.location)}</li>
      {service.payment === 'pay' ? (
        <li className="basis-full">Se paga al reservar</li>
      ) : service.payment === 'card' ? (
        <li className="basis-full">Se guarda una tarjeta al reservar</li>
      ) : null}
    </ul>
  );
}

export function ServiceCard({
  workspaceId,
  therapistId,
  service,
  headingLevel = 3,
}: {
  workspaceId: string;
  therapistId: string;
  service: PublicServiceSummary;
  headingLevel?: 2 | 3;
}) {
  const H = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <li className="grid gap-3 rounded-xl border bg-card p-4 shadow-xs" data-testid="service-card">
      <H className="text-base font-semibold">{service.title}</H>
      {service.description ? (
        <p className="line-clamp-3 whitespace-pre-line text-[0.9375rem] text-muted-foreground">{service.description}</p>
      ) : null}
      <ServiceFacts service={service} />
      {!service.allowNewPatients ? <p className="text-[0.8125rem] text-warning-fg">Solo para pacientes en consulta</p> : null}
      <div>
        <Link variant="primary" href={hrefOf(workspaceId, therapistId, service.id)} aria-label={`Reservar ${service.title}`}>
          Reservar
        </Link>
      </div>
    </li>
  );
}

/** The therapist's photo (or initial), name and biography. */
export function TherapistHeader({
  therapist,
  level = 2,
  biography = true,
  href,
}: {
  therapist: Pick<PublicTherapist, 'name' | 'pictureUrl' | 'biography'>;
  level?: 1 | 2;
  biography?: boolean;
  href?: string;
}) {
  const H = level === 1 ? 'h1' : 'h2';
  const heading = useRef<HTMLHeadingElement>(null);
  // A page's title takes focus when the page opens, so a screen reader starts there.
  useEffect(() => {
    if (level === 1) heading.current?.focus();
  }, [level]);
  return (
    <div className="flex items-start gap-4">
      {therapist.pictureUrl ? (
        <img src={therapist.pictureUrl} alt="" className="size-16 shrink-0 rounded-full object-cover sm:size-20" />
      ) : (
        <Initial name={therapist.name} className="size-16 text-2xl sm:size-20" />
      )}
      <div className="grid min-w-0 gap-1.5">
        <H
          ref={heading}
          tabIndex={level === 1 ? -1 : undefined}
          className={cx(
            'font-display font-semibold tracking-tight outline-none',
            level === 1 ? 'text-[1.625rem] leading-tight sm:text-[2rem]' : 'text-xl',
          )}
        >
          {href ? (
            <Link href={href} className="text-foreground">
              {therapist.name}
            </Link>
          ) : (
            therapist.name
          )}
        </H>
        {biography && therapist.biography ? (
          <p className="whitespace-pre-line text-[0.9375rem] leading-relaxed text-muted-foreground">{therapist.biography}</p>
        ) : null}
      </div>
    </div>
  );
}
