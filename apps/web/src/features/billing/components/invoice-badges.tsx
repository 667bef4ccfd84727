import { INVOICE_STATUS, PAYMENT_STATUS, type Invoice } from '@divan/core';
import { cn } from '@/lib/cn';

const pill = 'inline-flex h-6 shrink-0 items-center gap-1.5 whitespace-nowrap rounded-full px-2.5 text-xs font-medium ring-1 ring-inset';
const tones = {
  draft: 'bg-muted text-muted-foreground ring-border',
  issued: 'bg-accent text-accent-foreground ring-primary/20',
  // A darker green than --success for small text on the tinted background (WCAG AA).
  paid: 'bg-success/10 text-[#1f5c39] ring-success/25 dark:text-success',
  pending: 'bg-warning-bg text-warning-fg ring-warning-fg/20',
  refunded: 'bg-muted text-muted-foreground ring-border',
  rectifying: 'bg-card text-destructive ring-destructive/30',
  voided: 'bg-card text-destructive ring-destructive/30',
};

function Pill({ tone, children }: { tone: keyof typeof tones; children: string }) {
  return <span className={cn(pill, tones[tone])}>{children}</span>;
}

/** Borrador; or Emitida with Pagada/Pendiente; or Rectificativa and Emitida: words, not colours alone. */
export function InvoiceBadges({ invoice, className }: { invoice: Pick<Invoice, 'status' | 'kind' | 'paymentStatus'>; className?: string }) {
  return (
    <span className={cn('inline-flex flex-wrap items-center gap-1.5', className)}>
      {invoice.kind === 'rectifying' ? <Pill tone="rectifying">Rectificativa</Pill> : null}
      {invoice.status === 'draft' ? (
        <Pill tone="draft">{INVOICE_STATUS.labels.draft}</Pill>
      ) : invoice.status === 'voided' ? (
        <Pill tone="voided">{INVOICE_STATUS.labels.voided}</Pill>
      ) : (
        <>
          <Pill tone="issued">{INVOICE_STATUS.labels.issued}</Pill>
          {/* A rectifying invoice corrects an amount; its payment is not tracked here. */}
          {invoice.kind === 'ordinary' ? <Pill tone={invoice.paymentStatus}>{PAYMENT_STATUS.labels[invoice.paymentStatus]}</Pill> : null}
        </>
      )}
    </span>
  );
}
