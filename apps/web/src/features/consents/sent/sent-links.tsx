import { Check, Copy, MailCheck } from 'lucide-react';
import { useState } from 'react';
import { CONSENT_SIGNER_ROLE_LABELS, type SentConsent } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toast } from '@/lib/toast';

/** After sending: who was mailed, and each signing link to copy (WhatsApp, a message…). */
export function SentLinks({ sent }: { sent: SentConsent }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(url);
      toast.success('Enlace copiado');
    } catch {
      toast.error('No se ha podido copiar: selecciona el enlace y cópialo a mano.');
    }
  };
  const mailed = sent.signers.filter((s) => s.mailedAt);
  return (
    <div className="grid gap-4">
      <Alert variant="success">
        <span className="flex items-start gap-2 font-medium">
          <MailCheck className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span className="min-w-0 break-words">
            «{sent.documentTitle}» enviado a {mailed.map((s) => `${s.name} (${s.email})`).join(', ')}.
          </span>
        </span>
      </Alert>
      <p className="text-sm text-muted-foreground">
        También puedes copiar cada enlace y enviarlo por otro medio. Cada uno abre la firma de una sola persona: no lo compartas con nadie
        más.
      </p>
      <ul className="grid gap-3">
        {sent.links.map((l) => {
          const signer = sent.signers.find((s) => s.role === l.role);
          return (
            <li key={l.role} className="grid gap-1.5">
              <span className="text-sm font-medium">
                {CONSENT_SIGNER_ROLE_LABELS[l.role]}
                {signer ? ` · ${signer.name}` : ''}
                <span className="ml-2 font-normal text-muted-foreground">
                  {l.mailed ? 'enviado por email' : 'se le enviará cuando firme el primer tutor'}
                </span>
              </span>
              <div className="flex gap-2">
                <Input
                  readOnly
                  value={l.url}
                  aria-label={`Enlace de firma de ${CONSENT_SIGNER_ROLE_LABELS[l.role]}`}
                  onFocus={(e) => e.currentTarget.select()}
                  className="font-mono text-xs"
                />
                <Button
                  type="button"
                  variant="outline"
                  onClick={() => void copy(l.url)}
                  aria-label={`Copiar el enlace de ${CONSENT_SIGNER_ROLE_LABELS[l.role]}`}
                >
                  {copied === l.url ? <Check aria-hidden /> : <Copy aria-hidden />} Copiar
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
