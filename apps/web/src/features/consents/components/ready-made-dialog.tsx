import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ArrowLeft, Copy, PenLine } from 'lucide-react';
import { CONSENT_SIGNERS, type ConsentSigner, type ReadyMadeConsentTemplateResponse } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/states';
import { Spinner } from '@/components/ui/spinner';
import { messageOf } from '@/lib/error-message';
import { toast } from '@/lib/toast';
import { Modal } from '@/components/ui/modal';
import { useCopyReadyMade, useReadyMadeTemplates } from '../api/consent-templates-api';
import { SignatureInput } from './signature-input';

export const signersOf = (s: Record<ConsentSigner, boolean>) =>
  CONSENT_SIGNERS.values.filter((k) => s[k]).map((k) => CONSENT_SIGNERS.labels[k]);

/**
 * «Usar una plantilla de Diván»: the ready-made templates with what each is for. Copying one makes a
 * template of the workspace and opens it in the editor; one the therapist signs asks for the signature first.
 */
export function ReadyMadeDialog({ wid, open, onOpenChange }: { wid: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate();
  const list = useReadyMadeTemplates(open);
  const copy = useCopyReadyMade(wid);
  const [signing, setSigning] = useState<ReadyMadeConsentTemplateResponse | null>(null);
  const [signature, setSignature] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const change = (next: boolean) => {
    if (copy.isPending) return;
    if (!next) {
      setSigning(null);
      setSignature(null);
      setError(null);
    }
    onOpenChange(next);
  };

  const run = async (t: ReadyMadeConsentTemplateResponse, therapistSignature?: string) => {
    setError(null);
    try {
      const made = await copy.mutateAsync({ key: t.key, therapistSignature });
      toast.success(`Plantilla «${made.name}» creada`);
      change(false);
      void navigate(`/consents/editor/${made.id}`);
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const onUse = (t: ReadyMadeConsentTemplateResponse) => {
    if (t.content.signatures.therapist) {
      setSigning(t);
      setSignature(null);
      setError(null);
    } else void run(t);
  };

  return (
    <Modal
      open={open}
      onOpenChange={change}
      size="lg"
      title={signing ? `Firma para «${signing.name}»` : 'Usar una plantilla de Diván'}
      description={
        signing
          ? 'Este documento lo firma también el terapeuta: tu firma se guarda con la plantilla.'
          : 'Plantillas redactadas para una consulta de psicología en España. Haz una copia y adáptala.'
      }
      footer={
        signing ? (
          <>
            <Button type="button" variant="ghost" onClick={() => setSigning(null)} disabled={copy.isPending}>
              <ArrowLeft aria-hidden /> Volver
            </Button>
            <Button type="button" disabled={!signature} loading={copy.isPending} onClick={() => void run(signing, signature ?? undefined)}>
              <Copy aria-hidden /> Copiar con mi firma
            </Button>
          </>
        ) : null
      }
    >
      {error ? (
        <Alert variant="error" className="mb-4">
          {error}
        </Alert>
      ) : null}
      {signing ? (
        <SignatureInput value={signature} onChange={setSignature} label="Firma del terapeuta" />
      ) : list.isError ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} what="las plantillas de Diván" />
      ) : !list.data ? (
        <div className="grid place-items-center py-10">
          <Spinner />
        </div>
      ) : (
        <ul className="grid gap-3" aria-label="Plantillas de Diván">
          {list.data.map((t) => (
            <li key={t.key} className="grid gap-3 rounded-lg border bg-card p-4 sm:grid-cols-[1fr_auto] sm:items-center">
              <div className="grid min-w-0 gap-1.5">
                <h3 className="font-semibold leading-snug">{t.name}</h3>
                <p className="text-sm text-muted-foreground">{t.description}</p>
                <p className="flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
                  <span>Firman:</span>
                  {signersOf(t.content.signatures).map((s) => (
                    <Badge key={s} variant="outline">
                      {s}
                    </Badge>
                  ))}
                </p>
              </div>
              <Button
                type="button"
                variant="outline"
                onClick={() => onUse(t)}
                loading={copy.isPending && copy.variables?.key === t.key}
                aria-label={`Usar «${t.name}»`}
              >
                {t.content.signatures.therapist ? <PenLine aria-hidden /> : <Copy aria-hidden />} Usar
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
