import { WEEKDAY_LABELS } from '@divan/core';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

/**
 * Sessions by weekday and hour as a real table (each cell a number, its shade the same number): read by
 * a screen reader and walked with the keyboard like any table, no chart library needed.
 */
export function Heatmap({ cells }: { cells: { weekday: number; hour: number; count: number }[] }) {
  const hours = cells.length ? [...new Set(cells.map((c) => c.hour))] : [];
  const from = Math.min(8, ...hours);
  const to = Math.max(20, ...hours);
  const span = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const max = Math.max(1, ...cells.map((c) => c.count));
  const at = (w: number, h: number) => cells.find((c) => c.weekday === w && c.hour === h)?.count ?? 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Cuándo hay sesiones</CardTitle>
      </CardHeader>
      <CardContent className="overflow-x-auto">
        <table className="w-full border-separate border-spacing-0.5 text-xs">
          <caption className="sr-only">Sesiones no canceladas por día de la semana y hora de inicio</caption>
          <thead>
            <tr>
              <th scope="col" className="w-10">
                <span className="sr-only">Hora</span>
              </th>
              {WEEKDAY_LABELS.map((d) => (
                <th key={d} scope="col" className="px-1 pb-1 font-medium text-muted-foreground">
                  <span aria-hidden>{d.slice(0, 3)}</span>
                  <span className="sr-only">{d}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {span.map((h) => (
              <tr key={h}>
                <th scope="row" className="pr-1 text-right font-normal tabular-nums text-muted-foreground">
                  {String(h).padStart(2, '0')}:00
                </th>
                {WEEKDAY_LABELS.map((d, i) => {
                  const n = at(i + 1, h);
                  return (
                    <td
                      key={d}
                      className="h-6 min-w-9 rounded text-center tabular-nums"
                      style={{
                        background: n
                          ? `color-mix(in oklab, var(--color-primary) ${Math.round(15 + (n / max) * 85)}%, transparent)`
                          : 'var(--color-muted)',
                        color: n / max > 0.5 ? 'var(--color-primary-foreground)' : undefined,
                      }}
                    >
                      {n || <span className="sr-only">0</span>}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}
