import { Link } from 'react-router';
import { ChartColumnBig, Check } from 'lucide-react';
import type { DashboardStats } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle, CardDescription } from '@/components/ui/card';
import { formatCount, formatMoney } from '../utils/figures';
import { HIDDEN_AMOUNT } from '../utils/hidden-amounts';

const UNLOCKS = [
  'Pacientes: nuevos, altas por motivo, y quién es tu consulta por motivo, procedencia, edad y género',
  'Tratamientos: duración, abandono (y abandono temprano) por motivo, y cuántos vuelven a reservar',
  'Sesiones: canceladas por motivo, no presentadas, online y presenciales, y un mapa de días y horas',
  'Facturación: facturado y cobrado por mes, pendiente por antigüedad, sin facturar, previsión del mes',
  'Cada cifra abre la lista que cuenta, y cada pestaña se exporta a Excel o CSV',
];

/** Basic: the month in two figures, and what Premium (advance) and Team add (a plan to choose, not a hidden page). */
export function PlanGate({ stats, hidden }: { stats: DashboardStats | undefined; hidden: boolean }) {
  const r = stats?.revenue;
  const s = stats?.sessions;
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Resumen del mes</CardTitle>
          <CardDescription>Lo que incluye tu plan Basic.</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
            {r ? (
              <>
                <div className="grid gap-1">
                  <dt className="text-[0.8125rem] text-muted-foreground">Facturado</dt>
                  <dd className="text-xl font-semibold tabular-nums">{hidden ? HIDDEN_AMOUNT : formatMoney(r.monthIssuedCents)}</dd>
                </div>
                <div className="grid gap-1">
                  <dt className="text-[0.8125rem] text-muted-foreground">Cobrado</dt>
                  <dd className="text-xl font-semibold tabular-nums">{hidden ? HIDDEN_AMOUNT : formatMoney(r.monthCollectedCents)}</dd>
                </div>
              </>
            ) : null}
            {s ? (
              <>
                <div className="grid gap-1">
                  <dt className="text-[0.8125rem] text-muted-foreground">Sesiones realizadas</dt>
                  <dd className="text-xl font-semibold tabular-nums">{formatCount(s.completed)}</dd>
                </div>
                <div className="grid gap-1">
                  <dt className="text-[0.8125rem] text-muted-foreground">Pendientes</dt>
                  <dd className="text-xl font-semibold tabular-nums">{formatCount(s.pending)}</dd>
                </div>
              </>
            ) : null}
          </dl>
        </CardContent>
      </Card>
      <Card className="border-primary/30">
        <CardHeader>
          <span className="mb-1 grid size-10 place-items-center rounded-lg bg-accent text-accent-foreground">
            <ChartColumnBig className="size-5" aria-hidden />
          </span>
          <CardTitle>Estadísticas avanzadas, con Premium y Team</CardTitle>
          <CardDescription>
            Elige un periodo, compáralo con el anterior y mira tus cifras, las de un terapeuta o las de todo el espacio.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <ul className="grid gap-2 text-sm">
            {UNLOCKS.map((u) => (
              <li key={u} className="flex gap-2">
                <Check className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
                {u}
              </li>
            ))}
          </ul>
          <div>
            <Button asChild>
              <Link to="/plans">Ver planes</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
