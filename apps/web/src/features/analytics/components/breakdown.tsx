import { analyticsKeyLabel, type AnalyticsKeyKind } from '@divan/core';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCount } from '../utils/figures';

/**
 * A breakdown as a list of bars (motive, referral, age band…): plain HTML, so it reads and navigates like
 * text; null: the member may not read the field (Recepción and the motive), said rather than hidden.
 */
export function Breakdown({
  title,
  kind,
  items,
  unit = 'pacientes',
}: {
  title: string;
  kind: AnalyticsKeyKind;
  items: { key: string; count: number }[] | null;
  unit?: string;
}) {
  const total = items?.reduce((n, i) => n + i.count, 0) ?? 0;
  const max = Math.max(1, ...(items ?? []).map((i) => i.count));
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {items === null ? (
          <p className="text-sm text-muted-foreground">Tu rol no incluye estos datos clínicos.</p>
        ) : total === 0 ? (
          <p className="text-sm text-muted-foreground">Sin datos en este periodo.</p>
        ) : (
          <ul className="grid gap-2.5">
            {items
              .filter((i) => i.count > 0)
              .map((i) => (
                <li key={i.key} className="grid gap-1">
                  <span className="flex justify-between gap-3 text-sm">
                    <span>{analyticsKeyLabel(kind, i.key)}</span>
                    <span className="tabular-nums text-muted-foreground">
                      {formatCount(i.count)} <span className="sr-only">{unit}</span>· {Math.round((i.count / total) * 100)} %
                    </span>
                  </span>
                  <span className="h-2 overflow-hidden rounded-full bg-muted" aria-hidden>
                    <span className="block h-full rounded-full bg-primary" style={{ width: `${(i.count / max) * 100}%` }} />
                  </span>
                </li>
              ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
