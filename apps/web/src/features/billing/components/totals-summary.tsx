import { Card } from '@/components/ui/card';
import { formatCurrency } from '@/lib/format';
import { cn } from '@/lib/cn';

export type Totals = { subtotalCents: number; vatCents: number; withholdingCents: number; totalCents: number };

/** Base, IVA, IRPF and total; the withholding is subtracted, so it shows with its minus sign. */
export function TotalsSummary({ totals, label, className }: { totals: Totals; label: string; className?: string }) {
  const items = [
    { label: 'Base imponible', value: totals.subtotalCents },
    { label: 'IVA', value: totals.vatCents },
    { label: 'Retención IRPF', value: -totals.withholdingCents },
    { label: 'Total', value: totals.totalCents, strong: true },
  ];
  return (
    <dl aria-label={label} className={cn('grid grid-cols-2 gap-3 lg:grid-cols-4', className)}>
      {items.map((i) => (
        <Card key={i.label} className={cn('grid gap-0.5 p-4', i.strong && 'bg-accent/40')}>
          <dt className="text-[0.8125rem] text-muted-foreground">{i.label}</dt>
          <dd className={cn('font-display text-xl font-semibold tabular-nums', i.strong && 'text-2xl')} data-testid={`total-${i.label}`}>
            {formatCurrency(i.value === 0 ? 0 : i.value)}
          </dd>
        </Card>
      ))}
    </dl>
  );
}
