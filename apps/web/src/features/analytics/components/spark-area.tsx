import { useState, type KeyboardEvent, type MouseEvent } from 'react';

export interface SparkPoint {
  /** 'YYYY-MM-DD' */
  day: string;
  value: number;
}

interface Props {
  points: SparkPoint[];
  /** The chart's name for a screen reader. */
  label: string;
  /** The series' name in the tooltip: «Facturado: 60,00 €». */
  series: string;
  formatValue: (v: number) => string;
  formatTick: (day: string) => string;
  formatDay: (day: string) => string;
  /** No tooltip, no values: the amounts are hidden. */
  hidden?: boolean;
  ticks?: number;
}

/**
 * The dashboard's 30-day area, drawn as plain SVG: the dashboard is the first screen after sign-in, and
 * a chart library there would double the shell's JavaScript (Recharts stays on /analytics). The mouse
 * and the arrow keys walk the days; the figures are also in a table for screen readers beside it.
 */
export function SparkArea({ points, label, series, formatValue, formatTick, formatDay, hidden, ticks = 6 }: Props) {
  const [active, setActive] = useState<number | null>(null);
  const n = points.length;
  if (n === 0) return null;
  const max = Math.max(1, ...points.map((p) => p.value));
  const x = (i: number) => (n === 1 ? 50 : (i / (n - 1)) * 100);
  const y = (v: number) => 96 - (v / max) * 88;
  const line = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(2)},${y(p.value).toFixed(2)}`).join(' ');
  const area = `${line} L${x(n - 1).toFixed(2)},100 L${x(0).toFixed(2)},100 Z`;
  const step = Math.max(1, Math.round((n - 1) / (ticks - 1)));
  const tickIndexes = points.map((_, i) => i).filter((i) => i % step === 0 || i === n - 1);
  if (tickIndexes.length > 1 && tickIndexes[tickIndexes.length - 1]! - tickIndexes[tickIndexes.length - 2]! < step / 2) {
    tickIndexes.splice(tickIndexes.length - 2, 1);
  }

  const pick = (e: MouseEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    setActive(Math.min(n - 1, Math.max(0, Math.round(((e.clientX - box.left) / box.width) * (n - 1)))));
  };
  const keys = (e: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, Home: -n, End: n };
    const move = moves[e.key];
    if (move === undefined) return;
    e.preventDefault();
    setActive((a) => Math.min(n - 1, Math.max(0, (a ?? (move > 0 ? -1 : n)) + move)));
  };
  const current = !hidden && active !== null ? points[active] : undefined;

  return (
    <div className="grid gap-1">
      <div
        className="relative h-28 rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring"
        role="group"
        aria-label={`${label}. Flechas izquierda y derecha para recorrer los días.`}
        tabIndex={hidden ? -1 : 0}
        onMouseMove={hidden ? undefined : pick}
        onMouseLeave={() => setActive(null)}
        onKeyDown={hidden ? undefined : keys}
        onBlur={() => setActive(null)}
      >
        <svg viewBox="0 0 100 100" preserveAspectRatio="none" className="size-full overflow-visible" aria-hidden>
          <path d={area} fill="var(--color-primary)" fillOpacity={0.15} />
          <path
            d={line}
            fill="none"
            stroke="var(--color-primary)"
            strokeWidth={2}
            vectorEffect="non-scaling-stroke"
            strokeLinejoin="round"
          />
          {current ? (
            <line
              x1={x(active!)}
              x2={x(active!)}
              y1={0}
              y2={100}
              stroke="var(--color-border)"
              strokeWidth={1}
              vectorEffect="non-scaling-stroke"
            />
          ) : null}
        </svg>
        {current ? (
          <span
            className="pointer-events-none absolute top-0 size-2.5 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-card bg-primary"
            style={{ left: `${x(active!)}%`, top: `${y(current.value)}%` }}
            aria-hidden
          />
        ) : null}
        <div
          className="pointer-events-none absolute -top-2 rounded-md border bg-card px-2 py-1 text-xs shadow-sm empty:hidden"
          style={current ? { left: `clamp(0%, calc(${x(active!)}% - 4rem), calc(100% - 8rem))` } : undefined}
          aria-live="polite"
          data-testid="spark-tooltip"
        >
          {current ? (
            <>
              <span className="block text-muted-foreground">{formatDay(current.day)}</span>
              <span className="font-medium tabular-nums text-foreground">
                {series}: {formatValue(current.value)}
              </span>
            </>
          ) : null}
        </div>
      </div>
      <div className="relative h-4 text-[11px] text-muted-foreground" aria-hidden>
        {tickIndexes.map((i) => (
          <span
            key={points[i]!.day}
            className="absolute whitespace-nowrap"
            style={i === 0 ? { left: 0 } : i === n - 1 ? { right: 0 } : { left: `${x(i)}%`, transform: 'translateX(-50%)' }}
          >
            {formatTick(points[i]!.day)}
          </span>
        ))}
      </div>
    </div>
  );
}
