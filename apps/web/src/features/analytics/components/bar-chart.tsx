import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

export type Series = { key: string; label: string; color: string; format: (v: number) => string };

/**
 * A bar chart (Recharts 3) beside a visually hidden table of the same numbers: the chart takes focus
 * (Tab) and its arrow keys move the tooltip bar by bar; a screen reader reads the table.
 */
export function BarChartCard({
  title,
  rows,
  x,
  xLabel,
  formatX,
  series,
  stacked,
  hidden,
}: {
  title: string;
  rows: Record<string, string | number>[];
  x: string;
  xLabel: string;
  formatX: (v: string) => string;
  series: Series[];
  stacked?: boolean;
  /** Amounts hidden: the chart shows the shape, no figure. */
  hidden?: boolean;
}) {
  const tick = { fill: 'var(--color-muted-foreground)', fontSize: 12 };
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <div className="h-64" aria-hidden={hidden ? true : undefined}>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={rows} accessibilityLayer title={title} margin={{ top: 4, right: 4, bottom: 0, left: 0 }}>
              <CartesianGrid vertical={false} stroke="var(--color-border)" />
              <XAxis dataKey={x} tickFormatter={(v: string) => formatX(v)} tick={tick} tickLine={false} axisLine={false} minTickGap={12} />
              <YAxis
                tick={tick}
                tickLine={false}
                axisLine={false}
                width={hidden ? 8 : 64}
                tickFormatter={(v: number) => (hidden ? '' : series[0]!.format(v))}
                allowDecimals={false}
              />
              {hidden ? null : (
                <Tooltip
                  cursor={{ fill: 'var(--color-muted)' }}
                  labelFormatter={(v) => formatX(String(v))}
                  formatter={(v, name) => {
                    const s = series.find((x) => x.key === name);
                    return [s ? s.format(Number(v)) : String(v), s?.label ?? String(name)];
                  }}
                  contentStyle={{ background: 'var(--color-card)', borderColor: 'var(--color-border)', borderRadius: 8, fontSize: 13 }}
                  // The series' colours mark the swatches; the words stay in the text colour (a pale series' name would not read).
                  itemStyle={{ color: 'var(--color-foreground)' }}
                />
              )}
              {series.length > 1 ? (
                <Legend
                  formatter={(name) => <span className="text-foreground">{series.find((s) => s.key === name)?.label ?? name}</span>}
                />
              ) : null}
              {series.map((s) => (
                <Bar
                  key={s.key}
                  isAnimationActive={false}
                  dataKey={s.key}
                  fill={s.color}
                  stackId={stacked ? 'a' : undefined}
                  radius={stacked ? 0 : [3, 3, 0, 0]}
                />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </div>
        <table className="sr-only">
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{xLabel}</th>
              {series.map((s) => (
                <th key={s.key} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={String(r[x])}>
                <th scope="row">{formatX(String(r[x]))}</th>
                {series.map((s) => (
                  <td key={s.key}>{hidden ? 'Oculto' : s.format(Number(r[s.key] ?? 0))}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}
