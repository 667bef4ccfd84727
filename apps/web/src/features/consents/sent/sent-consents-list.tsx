import { useState } from 'react';
import { Link } from 'react-router';
import { Ban, CheckCircle2, Circle, Download, Eye, FileSignature, Send } from 'lucide-react';
import {
  CONSENT_ENVELOPE_STATES,
  CONSENT_ENVELOPE_STATE_LABELS,
  CONSENT_SIGNER_ROLE_LABELS,
  type ConsentEnvelope,
  type ConsentEnvelopeState,
} from '@divan/core';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { RowDangerAction } from '@/components/ui/row-actions';
import { NativeSelect } from '@/components/ui/native-select';
import { Pagination } from '@/components/ui/pagination';
import { EmptyState, LoadError } from '@/components/ui/states';
import { messageOf } from '@/lib/error-message';
import { formatDate, formatTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { downloadSignedConsent, useRevokeConsent, useSentConsents } from '../api/consent-envelopes-api';

const PAGE_SIZE = 20;
const STATE_VARIANT: Record<ConsentEnvelopeState, 'accent' | 'warning' | 'neutral' | 'destructive'> = {
  sent: 'warning',
  opened: 'warning',
  signed: 'accent',
  revoked: 'destructive',
};
const at = (iso: string) => `${formatDate(iso)} ${formatTime(iso)}`;

type Props = {
  wid: string;
  /** Only this patient's (their file's tab); otherwise the workspace's, with the patient's name on each. */
  patientId?: string;
  canSend: boolean;
  canRevoke: boolean;
  onSend: () => void;
};

function SignerLine({ s }: { s: ConsentEnvelope['signers'][number] }) {
  const status = s.signedAt
    ? `firmó el ${at(s.signedAt)}`
    : s.openedAt
      ? `lo abrió el ${at(s.openedAt)}`
      : s.mailedAt
        ? 'aún no lo ha abierto'
        : 'recibirá su enlace cuando firme el primer tutor';
  return (
    <li className="flex items-start gap-1.5 text-[0.8125rem]">
      {s.signedAt ? (
        <CheckCircle2 className="mt-0.5 size-3.5 shrink-0 text-success" aria-hidden />
      ) : s.openedAt ? (
        <Eye className="mt-0.5 size-3.5 shrink-0 text-muted-foreground" aria-hidden />
      ) : (
        <Circle className="mt-0.5 size-3.5 shrink-0 text-muted-foreground" aria-hidden />
      )}
      <span className="min-w-0 break-words">
        <span className="font-medium">{CONSENT_SIGNER_ROLE_LABELS[s.role]}</span> · {s.name}:{' '}
        <span className="text-muted-foreground">{status}</span>
      </span>
    </li>
  );
}

function Row({
  e,
  wid,
  showPatient,
  canRevoke,
  onRevoke,
}: {
  e: ConsentEnvelope;
  wid: string;
  showPatient: boolean;
  canRevoke: boolean;
  onRevoke: () => void;
}) {
  const live = e.state === 'sent' || e.state === 'opened';
  const download = () => downloadSignedConsent(wid, e).catch((err: unknown) => toast.error(messageOf(err)));
  return (
    <li className="flex items-start gap-3 px-4 py-3.5">
      <span className="mt-0.5 grid size-9 shrink-0 place-items-center rounded-lg bg-accent text-accent-foreground [&_svg]:size-4.5">
        <FileSignature aria-hidden />
      </span>
      <div className="grid min-w-0 flex-1 gap-1.5">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span className="break-words font-medium">{e.documentTitle}</span>
          <Badge variant={STATE_VARIANT[e.state]}>{CONSENT_ENVELOPE_STATE_LABELS[e.state]}</Badge>
          {e.minorException ? <Badge variant="outline">Un solo tutor (art. 156 CC)</Badge> : null}
        </div>
        <span className="text-[0.8125rem] text-muted-foreground">
          {showPatient ? (
            <>
              <Link to={`/patients/${e.patient.id}/consents`} className="font-medium text-foreground hover:underline">
                {e.patient.name || 'Paciente'}
              </Link>
              {' · '}
            </>
          ) : null}
          Enviado el {at(e.sentAt)}
          {e.therapist ? ` por ${e.therapist.name}` : ''}
          {e.completedAt ? ` · firmado del todo el ${at(e.completedAt)}` : ''}
          {e.revokedAt ? ` · anulado el ${at(e.revokedAt)}` : ''}
        </span>
        <ul className="grid gap-0.5">
          {e.signers.map((s) => (
            <SignerLine key={s.role} s={s} />
          ))}
        </ul>
      </div>
      {e.state === 'signed' && !e.documentId ? (
        <span className="self-center text-[0.8125rem] text-muted-foreground">Sellando el PDF…</span>
      ) : null}
      {e.state === 'signed' && e.documentId ? (
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => void download()}
          aria-label={`Descargar el PDF firmado de ${e.documentTitle}`}
        >
          <Download aria-hidden /> <span className="hidden sm:inline">PDF firmado</span>
        </Button>
      ) : null}
      {live && canRevoke ? (
        <RowDangerAction label={`Acciones de ${e.documentTitle}`} icon={<Ban aria-hidden />} action="Anular…" onSelect={onRevoke} />
      ) : null}
    </li>
  );
}

/** Sent consents, newest first, with who has signed; a state filter and pages. */
export function SentConsentsList({ wid, patientId, canSend, canRevoke, onSend }: Props) {
  const [state, setState] = useState<ConsentEnvelopeState | ''>('');
  const [page, setPage] = useState(1);
  const list = useSentConsents(wid, patientId ?? null, { ...(state ? { state } : {}), page, pageSize: PAGE_SIZE });
  const revoke = useRevokeConsent(wid);
  const [revoking, setRevoking] = useState<ConsentEnvelope | null>(null);
  const data = list.data;
  const nothingAtAll = data && data.total === 0 && !state;

  if (list.isError && !data)
    return <LoadError error={list.error} onRetry={() => void list.refetch()} what="los consentimientos enviados" />;
  return (
    <section aria-label="Consentimientos enviados" aria-busy={list.isFetching} className="grid gap-4">
      {nothingAtAll ? (
        <div className="rounded-xl border border-dashed bg-card">
          <EmptyState
            icon={<Send aria-hidden />}
            title={patientId ? 'No se le ha enviado ningún consentimiento' : 'Aún no has enviado consentimientos'}
            text="Envía una plantilla: cada firmante recibe su enlace por email y firma desde el móvil, sin cuenta. El PDF firmado se guarda en los documentos del paciente."
          >
            {canSend ? (
              <Button type="button" onClick={onSend}>
                <Send aria-hidden /> Enviar consentimiento
              </Button>
            ) : null}
          </EmptyState>
        </div>
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <NativeSelect
              aria-label="Estado"
              className="sm:w-52"
              value={state}
              onChange={(ev) => {
                setState(ev.target.value as ConsentEnvelopeState | '');
                setPage(1);
              }}
              options={[
                { value: '', label: 'Todos los estados' },
                ...CONSENT_ENVELOPE_STATES.map((s) => ({ value: s, label: CONSENT_ENVELOPE_STATE_LABELS[s] })),
              ]}
            />
            {canSend ? (
              <Button type="button" onClick={onSend}>
                <Send aria-hidden /> Enviar consentimiento
              </Button>
            ) : null}
          </div>
          {!data ? (
            <div className="h-40 animate-pulse rounded-xl border bg-muted/40" aria-hidden />
          ) : data.items.length === 0 ? (
            <div className="rounded-xl border bg-card">
              <EmptyState icon={<FileSignature aria-hidden />} title="Ninguno en este estado" text="Prueba con otro estado.">
                <Button variant="outline" onClick={() => setState('')}>
                  Ver todos
                </Button>
              </EmptyState>
            </div>
          ) : (
            <ul className={`divide-y rounded-xl border bg-card transition-opacity ${list.isPlaceholderData ? 'opacity-60' : ''}`}>
              {data.items.map((e) => (
                <Row key={e.id} e={e} wid={wid} showPatient={!patientId} canRevoke={canRevoke} onRevoke={() => setRevoking(e)} />
              ))}
            </ul>
          )}
          {data && data.total > 0 ? <Pagination page={page} pageSize={PAGE_SIZE} total={data.total} onPage={setPage} /> : null}
        </>
      )}
      <ConfirmDialog
        open={!!revoking}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="¿Anular el consentimiento?"
        description={`Los enlaces de firma de «${revoking?.documentTitle ?? ''}» dejarán de funcionar. Las firmas ya hechas quedan en el registro de evidencias.`}
        confirmLabel="Anular"
        onConfirm={async () => {
          if (!revoking) return;
          try {
            await revoke.mutateAsync(revoking.id);
          } catch (err) {
            throw new Error(messageOf(err));
          }
          toast.success('Consentimiento anulado');
        }}
      />
    </section>
  );
}
