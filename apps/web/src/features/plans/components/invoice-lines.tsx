import type { BillingChangePreview } from '@divan/core';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import { formatCurrency } from '@/lib/format';
import { plusVat, subscriptionTexts } from '../utils/subscription';

/** The lines of an invoice the provider previewed, each adjustment of a change marked, and its total «+ IVA». */
export function InvoiceLines({ preview, label, className }: { preview: BillingChangePreview; label: string; className?: string }) {
  return (
    <ul className={cn('grid divide-y overflow-hidden rounded-lg border text-[0.8125rem]', className)} aria-label={label}>
      {preview.lines.map((line, i) => (
        <li key={i} className="flex items-start justify-between gap-3 px-3 py-2">
          <span className="grid min-w-0 gap-1">
            <span className="break-words">{line.description || 'Plan de Diván'}</span>
            {line.proration ? (
              <Badge variant="outline" className="justify-self-start">
                {subscriptionTexts.prorationTag}
              </Badge>
            ) : null}
          </span>
          <span className="shrink-0 font-medium tabular-nums">{formatCurrency(line.amount)}</span>
        </li>
      ))}
      <li className="flex items-center justify-between gap-3 bg-muted/50 px-3 py-2 font-medium">
        <span>Total</span>
        <span className="tabular-nums">{plusVat(preview.subtotal)}</span>
      </li>
    </ul>
  );
}
