import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

export interface StatsRow {
  key: string;
  /** The row's name (a therapist, a motive, a bucket): read by a screen reader as the row's header. */
  head: ReactNode;
  /** The figures, right-aligned, in the order of `columns` after the first. */
  cells: ReactNode[];
}

/**
 * The small tables of the statistics tabs: a name on the left, figures on the right in tabular digits.
 * `columns` is the header row (first = the names' column); without it the table has no header.
 */
export function StatsTable({ columns, rows }: { columns?: string[]; rows: StatsRow[] }) {
  const last = (i: number, length: number) => i === length - 1;
  return (
    <table className="w-full text-sm">
      {columns ? (
        <thead>
          <tr className="border-b text-left text-xs text-muted-foreground">
            {columns.map((c, i) => (
              <th key={c} scope="col" className={cn('py-2 font-medium', i > 0 && 'text-right', !last(i, columns.length) && 'pr-3')}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
      ) : null}
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} className="border-b tabular-nums last:border-0">
            <th scope="row" className="py-2 pr-3 text-left font-normal">
              {r.head}
            </th>
            {r.cells.map((cell, i) => (
              <td key={i} className={cn('py-2 text-right', !last(i, r.cells.length) && 'pr-3')}>
                {cell}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
