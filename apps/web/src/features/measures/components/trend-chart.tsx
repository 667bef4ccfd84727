import { CartesianGrid, Line, LineChart, ReferenceArea, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { MEASURES, RELIABLE_CHANGE_LABELS, type MeasureKey, type ReliableChange } from '@divan/core/rules';
import type { MeasureTrend } from '@divan/core';
import { formatDate } from '@/lib/format';

/** Band colours by severity level (0 healthiest), soft enough to read the line over them. */
const BAND_FILL = ['#2F6F5E', '#8DB48E', '#E3C567', '#E39B5B', '#D26A5C', '#A63D40'];
const CHANGE_COLOUR: Record<ReliableChange, string> = {
  recovered: '#2F6F5E',
  improved: '#5E9C76',
  deteriorated: '#B23A48',
  no_change: 'var(--color-muted-foreground)',
};

type Line = MeasureTrend[number];

/**
 * One measure's trend (Recharts 3, loaded only with this tab): its bands as shaded areas, the clinical
 * cut-off as a dashed line, each point coloured by its reliable change against the first; beside it a
 * visually hidden table of the same numbers for screen readers.
 */
export function TrendChart({ line }: { line: Line }) {
  const m = MEASURES[line.measure as MeasureKey];
  const scale = m.scales.find((s) => s.key === line.scale)!;
  const title = m.scales.length > 1 ? `${m.shortName} · ${scale.label}` : m.shortName;
  const rows = line.points.map((p, i) => ({ ...p, n: i + 1, day: formatDate(p.completedAt) }));
  const tick = { fill: 'var(--color-muted-foreground)', fontSize: 12 };
  return (
    <figure className="grid gap-2" data-testid={`trend-${line.measure}-${line.scale}`}>
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-medium">{title}</span>
        {line.classification ? (
          <span className="text-sm" style={{ color: CHANGE_COLOUR[line.classification] }} data-testid="classification">
            {RELIABLE_CHANGE_LABELS[line.classification]}
          </span>
        ) : (
          <span className="text-sm text-muted-foreground">Una sola administración</span>
        )}
      </figcaption>
      <div className="h-56">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} accessibilityLayer>
            {scale.bands.map((b, i) => (
              <ReferenceArea
                key={b.label}
                y1={b.from}
                y2={scale.bands[i + 1]?.from ?? scale.max}
                fill={BAND_FILL[Math.min(b.level, BAND_FILL.length - 1)]}
                fillOpacity={0.12}
                ifOverflow="hidden"
              />
            ))}
            <CartesianGrid vertical={false} stroke="var(--color-border)" />
            <XAxis dataKey="day" tick={tick} tickLine={false} axisLine={false} minTickGap={12} />
            <YAxis domain={[scale.min, scale.max]} tick={tick} tickLine={false} axisLine={false} width={36} allowDecimals={false} />
            {scale.cutoff !== undefined ? (
              <ReferenceLine
                y={scale.cutoff}
                stroke="var(--color-foreground)"
                strokeDasharray="5 4"
                label={{ value: `Corte ${scale.cutoff}`, position: 'insideTopRight', fill: 'var(--color-muted-foreground)', fontSize: 11 }}
              />
            ) : null}
            <Tooltip
              formatter={(v) => [String(v), 'Puntuación']}
              labelFormatter={(label) => String(label)}
              contentStyle={{ borderRadius: 8, borderColor: 'var(--color-border)' }}
            />
            <Line
              type="monotone"
              dataKey="value"
              stroke="var(--color-primary)"
              strokeWidth={2}
              isAnimationActive={false}
              dot={(props: { cx?: number; cy?: number; index?: number }) => {
                const p = rows[props.index ?? 0];
                const colour = p?.change ? CHANGE_COLOUR[p.change] : 'var(--color-primary)';
                const reliable = p?.change && p.change !== 'no_change';
                return (
                  <circle
                    key={props.index}
                    cx={props.cx}
                    cy={props.cy}
                    r={reliable ? 6 : 4}
                    fill={colour}
                    stroke="var(--color-card)"
                    strokeWidth={2}
                  />
                );
              }}
            />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <table className="sr-only">
        <caption>
          {title}: puntuaciones por fecha, con el cambio fiable respecto a la primera
          {scale.cutoff !== undefined ? ` (punto de corte ${scale.cutoff})` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Fecha</th>
            <th scope="col">Puntuación</th>
            <th scope="col">Rango</th>
            <th scope="col">Cambio fiable</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => (
            <tr key={p.administrationId}>
              <td>{p.day}</td>
              <td>{p.value}</td>
              <td>{p.band ?? '—'}</td>
              <td>{p.change ? RELIABLE_CHANGE_LABELS[p.change] : 'Primera'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="text-xs text-muted-foreground">
        Cambio fiable (Jacobson–Truax): ≥ {scale.reliableChange} puntos. Los puntos grandes marcan un cambio fiable.
      </p>
    </figure>
  );
}

export default function TrendCharts({ lines }: { lines: Line[] }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      {lines.map((l) => (
        <TrendChart key={`${l.measure}:${l.scale}`} line={l} />
      ))}
    </div>
  );
}
