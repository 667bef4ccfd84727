import { Link } from 'react-router';
import { Check, LifeBuoy, Minus } from 'lucide-react';
import type { Workspace } from '@divan/core';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeading } from '@/components/ui/page-heading';
import { PageSpinner } from '@/components/ui/spinner';
import { useAbility } from '@/lib/ability';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';
import { planSummary } from '../utils/plan-status';
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
      <Card>
        <CardHeader>
          <CardTitle className="font-display text-xl tracking-tight">Planes</CardTitle>
          <CardDescription className="max-w-prose">
            {decides
              ? 'Compara Basic, Premium y Team con el precio para tu espacio, y contrata al mes o al año con tarjeta, en una página de pago segura.'
              : `Los cambios de plan los decide ${ws.owner.firstName || 'quien administra el espacio'}. Puedes ver los planes, qué incluye cada uno y su precio.`}
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap items-center justify-between gap-3">
          <Button asChild variant={decides ? 'default' : 'outline'} className="w-full sm:w-auto">
            <Link to="/plans">{decides ? 'Ver planes y contratar' : 'Ver planes'}</Link>
          </Button>
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <LifeBuoy className="size-4 shrink-0" aria-hidden />
            <span>
              ¿Dudas sobre tu plan?{' '}
              <Link to="/settings/help" className="font-medium text-primary underline underline-offset-2">
                Escríbenos
              </Link>
            </span>
          </p>
        </CardContent>
      </Card>
    </div>
  );
}

export { WorkspacePlanRoute as Component };
