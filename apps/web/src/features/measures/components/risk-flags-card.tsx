import { useId } from 'react';
import { Link } from 'react-router';
import { TriangleAlert } from 'lucide-react';
import type { MeasureFlags } from '@divan/core';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDate } from '@/lib/format';

/**
 * «Posible riesgo» on the dashboard: the questionnaires with a risk answer (PHQ-9 item 9 above 0) not
 * yet marked as reviewed, each linking to the patient's «Cuestionarios» tab. The dashboard fetches
 * them (useMeasureFlags) and loads this chunk only when there are some; the server lists only the
 * caller's own patients' (Recepción: none).
 */
export function RiskFlagsCard({ flags }: { flags: MeasureFlags }) {
  const id = useId();
  return (
    <Card role="region" aria-labelledby={`${id}-title`} className="border-destructive/40" data-testid="risk-flags-card">
      <CardHeader>
        <CardTitle id={`${id}-title`} className="flex items-center gap-2">
          <TriangleAlert className="size-4 text-destructive" aria-hidden /> Posible riesgo sin revisar
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-2" aria-label="Cuestionarios con posible riesgo">
          {flags.map((f) => (
            <li key={f.administrationId} className="flex flex-wrap items-baseline gap-x-2 text-sm">
              <Link to={`/patients/${f.patient.id}/measures`} className="font-medium text-primary underline-offset-4 hover:underline">
                {f.patient.name}
              </Link>
              <span className="text-muted-foreground">
                {f.measureName} del {formatDate(f.completedAt)}
              </span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
