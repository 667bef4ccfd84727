import { Check, Mail, Minus } from 'lucide-react';
import { PLAN_IDS, PLAN_LABELS, SUPPORT_EMAIL, type PlanId, type Workspace } from '@divan/core';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeading } from '@/components/ui/page-heading';
import { PageSpinner } from '@/components/ui/spinner';
import { useAbility } from '@/lib/ability';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';
import { planSummary } from '../utils/plan-status';
import { planLines, planMailto, priceLines } from '../utils/plan-features';
import { cn } from '@/lib/cn';
import { usePageTitle } from '@/lib/use-page-title';

function featureRows(ws: Workspace): { label: string; value: string | boolean }[] {
  const f = ws.features;
  return [
    { label: 'Pacientes activos por terapeuta', value: f.activePatientLimit === null ? 'Ilimitados' : String(f.activePatientLimit) },
    { label: 'Recordatorios por sesión', value: String(f.sessionReminders) },
    { label: 'Facturas automáticas y por lotes', value: f.canCreateInvoiceBatch },
    { label: 'Tu agenda de reservas en tu web', value: f.canEmbedPublicServices },
    { label: 'Plazas (miembros e invitaciones)', value: String(ws.maxSeats) },
  ];
}

export function WorkspacePlanRoute() {
  usePageTitle('Plan del espacio');
  const ws = useCurrentWorkspace();
  const ability = useAbility();
  if (!isRealWorkspace(ws.id)) return <PageSpinner />;
  const summary = planSummary(ws);
  const decides = ws.isOwner || ability.can('update', 'workspace_billing');

  return (
    <div className="grid gap-6">
      <PageHeading title="Plan" workspace={ws.name} />
      <Card>
        <CardHeader>
          <div className="flex flex-wrap items-center gap-2">
            <CardTitle className="text-xl">{summary.name}</CardTitle>
            {summary.badge ? <Badge variant={summary.badge === 'En prueba' ? 'accent' : 'warning'}>{summary.badge}</Badge> : null}
          </div>
          <CardDescription>{summary.status}</CardDescription>
        </CardHeader>
        <CardContent>
          <h3 className="mb-2 text-sm font-medium">Incluye ahora</h3>
          <dl className="divide-y rounded-lg border">
            {featureRows(ws).map(({ label, value }) => (
              <div key={label} className="flex items-center justify-between gap-4 px-4 py-2.5 text-sm">
                <dt className="text-muted-foreground">{label}</dt>
                <dd className="font-medium">
                  {typeof value === 'string' ? (
                    value
                  ) : value ? (
                    <>
                      <Check className="inline size-4 text-success" aria-hidden /> <span className="sr-only">Sí</span>
                    </>
                  ) : (
                    <>
                      <Minus className="inline size-4 text-muted-foreground" aria-hidden /> <span className="sr-only">No</span>
                    </>
                  )}
                </dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
      <section className="grid gap-4" aria-labelledby="plans-heading">
        <div className="grid gap-1">
          <h3 id="plans-heading" className="font-display text-xl font-semibold tracking-tight">
            Planes
          </h3>
          <p className="max-w-prose text-sm text-muted-foreground">Precio por usuario activo, IVA no incluido.</p>
        </div>
        <div className="grid gap-4 lg:grid-cols-3">
          {PLAN_IDS.map((id) => (
            <PlanCard
              key={id}
              id={id}
              current={ws.plan.id === id}
              mailto={decides ? planMailto(`Plan ${PLAN_LABELS[id]} para ${ws.name}`, ws.name) : null}
            />
          ))}
        </div>
      </section>
      <Card>
        <CardContent className="flex items-start gap-3 pt-5 text-sm sm:pt-6">
          <Mail className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
          <p className="leading-relaxed">
            {decides ? (
              <>
                Contratar, cambiar o cancelar el plan se hace de momento por email: escríbenos a{' '}
                <a className="font-medium text-primary underline underline-offset-2" href={planMailto(`Plan de ${ws.name}`, ws.name)}>
                  {SUPPORT_EMAIL}
                </a>{' '}
                y te ayudamos a elegir el que encaja con tu consulta.
              </>
            ) : (
              <>
                Los cambios de plan los decide {ws.owner.firstName || 'quien administra el espacio'}. Para cualquier duda, escríbenos a{' '}
                <a className="font-medium text-primary underline underline-offset-2" href={`mailto:${SUPPORT_EMAIL}`}>
                  {SUPPORT_EMAIL}
                </a>
                .
              </>
            )}
          </p>
        </CardContent>
      </Card>
    </div>
  );
}

export { WorkspacePlanRoute as Component };

function PlanCard({ id, current, mailto }: { id: PlanId; current: boolean; mailto: string | null }) {
  const price = priceLines(id);
  return (
    <Card className={cn('flex flex-col', current && 'border-primary ring-1 ring-primary')} data-testid={`plan-${id}`}>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle className="text-lg">{PLAN_LABELS[id]}</CardTitle>
          {current ? <Badge variant="accent">Tu plan</Badge> : null}
        </div>
        {price ? (
          <div className="grid gap-0.5">
            <p className="text-2xl font-semibold tracking-tight">
              {price.monthly} <span className="text-sm font-normal text-muted-foreground">al mes por usuario + IVA</span>
            </p>
            <p className="text-[0.8125rem] text-muted-foreground">{price.yearly} (dos meses gratis)</p>
          </div>
        ) : (
          <div className="grid gap-0.5">
            <p className="text-2xl font-semibold tracking-tight">A medida</p>
            <p className="text-[0.8125rem] text-muted-foreground">Según el tamaño de tu equipo: te damos precio por email.</p>
          </div>
        )}
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-4">
        <ul className="grid gap-2 text-sm">
          {planLines(id).map((line) => (
            <li key={line.label} className="flex items-start gap-2">
              <Check className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
              <span>{line.label}</span>
            </li>
          ))}
        </ul>
        {mailto && !current ? (
          <Button asChild variant={id === 'advance' ? 'default' : 'outline'} className="mt-auto">
            <a href={mailto}>{price ? `Pedir ${PLAN_LABELS[id]}` : 'Pedir precio'}</a>
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}
