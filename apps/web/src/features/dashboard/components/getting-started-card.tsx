import { Link } from 'react-router';
import { ArrowRight, CircleCheck, Circle } from 'lucide-react';
import type { Profile } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';

export type ProfileStep = { label: string; done: boolean };

/** What a patient or an invoice will show about the therapist, in the order it matters. */
export function profileSteps(p: Profile): ProfileStep[] {
  return [
    { label: 'Crea tu cuenta', done: true },
    { label: 'Añade tus apellidos', done: Boolean(p.lastName) },
    { label: 'Sube una foto de perfil', done: Boolean(p.pictureUrl) },
    { label: 'Indica tu número de colegiado', done: Boolean(p.registrationNumber) },
    { label: 'Escribe una breve biografía', done: Boolean(p.biography) },
  ];
}

export function GettingStartedCard({ profile }: { profile: Profile }) {
  const steps = profileSteps(profile);
  const done = steps.filter((s) => s.done).length;
  const complete = done === steps.length;
  const percent = Math.round((done / steps.length) * 100);

  return (
    <Card className="overflow-hidden">
      <CardHeader>
        <CardTitle>{complete ? 'Tu perfil está completo' : 'Primeros pasos'}</CardTitle>
        <CardDescription>
          {complete
            ? 'Gracias. Puedes revisarlo cuando quieras desde Ajustes.'
            : 'Un perfil completo ayuda a tu equipo a saber quién eres y cómo trabajas.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="grid gap-2">
          <div className="flex items-center justify-between text-[0.8125rem] text-muted-foreground">
            <span>
              {done} de {steps.length} completados
            </span>
            <span>{percent}%</span>
          </div>
          <div
            className="h-2 overflow-hidden rounded-full bg-muted"
            role="progressbar"
            aria-label="Perfil completado"
            aria-valuenow={percent}
            aria-valuemin={0}
            aria-valuemax={100}
          >
            <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
          </div>
        </div>
        <ul className="grid gap-2.5">
          {steps.map((s) => (
            <li key={s.label} className={cn('flex items-center gap-2.5 text-sm', s.done && 'text-muted-foreground')}>
              {s.done ? (
                <CircleCheck className="size-[1.125rem] text-success" aria-hidden />
              ) : (
                <Circle className="size-[1.125rem] text-input" aria-hidden />
              )}
              <span className={cn(s.done && 'line-through decoration-muted-foreground/50')}>{s.label}</span>
              <span className="sr-only">{s.done ? '(hecho)' : '(pendiente)'}</span>
            </li>
          ))}
        </ul>
        <div>
          <Button asChild variant={complete ? 'outline' : 'default'}>
            <Link to="/settings/profile">
              {complete ? 'Ver mi perfil' : 'Completar mi perfil'} <ArrowRight aria-hidden />
            </Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
