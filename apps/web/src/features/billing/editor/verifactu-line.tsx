import { verifactuSubmissionStateLabel, type Invoice } from '@divan/core';
import { cn } from '@/lib/cn';
import { formatDate, formatTime } from '@/lib/format';
import { useVerifactuStatus } from '../api/support-api';

const KIND = { registration: 'Alta', cancellation: 'Anulación' } as const;

/**
 * The invoice's VERI*FACTU record, with the link to check it at the AEAT, and, when this server sends
 * the records to the AEAT, where each one is: pending, accepted (with its CSV) or rejected (and why).
 */
export function VerifactuLine({ wid, invoice }: { wid: string; invoice: Invoice }) {
  const status = useVerifactuStatus(wid, invoice.id);
  if (!invoice.verifactu) return null;
  const sent = status.data?.sending ? status.data.records : [];
  return (
    <div className="grid gap-1 text-[0.8125rem] text-muted-foreground" data-testid="verifactu">
      <p>
        Registrada en VERI*FACTU ·{' '}
        <a href={invoice.verifactu.qrUrl} target="_blank" rel="noreferrer" className="underline">
          cotejar en la Agencia Tributaria
        </a>
      </p>
      {sent.map((r) => (
        <p key={`${r.kind}:${r.number}`} className={cn(r.state === 'rejected' && 'font-medium text-destructive')}>
          {KIND[r.kind]}: {verifactuSubmissionStateLabel[r.state]}
          {r.csv ? ` · CSV ${r.csv}` : ''}
          {r.errorDescription ? ` · ${r.errorCode ? `${r.errorCode}: ` : ''}${r.errorDescription}` : ''}
          {r.state === 'pending' && r.nextAttemptAt
            ? ` · próximo intento el ${formatDate(r.nextAttemptAt)} a las ${formatTime(r.nextAttemptAt)}`
            : ''}
        </p>
      ))}
    </div>
  );
}
