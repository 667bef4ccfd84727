import { useState } from 'react';
import { Link2, Link2Off, Send } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Modal } from '@/components/ui/modal';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { messageOf } from '../utils/errors';
import { useConnectStatus, useDisconnect, useInviteToConnect } from './connect-api';

type Props = { workspaceId: string; patientId: string; patientName: string; patientEmail: string | null };

/**
 * «Conectar con el paciente» in the file's header: the patient's own account (issue 15). Not invited:
 * invite by email; invited: when and to whom, and resend; connected: since when, and disconnect
 * (asked first). Shown to who may update the patient's file.
 */
export function ConnectAction({ workspaceId, patientId, patientName, patientEmail }: Props) {
  const status = useConnectStatus(workspaceId, patientId);
  const invite = useInviteToConnect(workspaceId, patientId);
  const disconnect = useDisconnect(workspaceId, patientId);
  const [inviting, setInviting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);

  if (!status.data) return null;
  const s = status.data;

  const open = (initial: string) => {
    setEmail(initial);
    setError(null);
    setInviting(true);
  };
  const send = () =>
    invite.mutate(email.trim(), {
      onSuccess: () => {
        toast.success(`Invitación enviada a ${email.trim()}`);
        setInviting(false);
      },
      onError: (e) => setError(messageOf(e)),
    });

  return (
    <>
      {s.status === 'not_invited' ? (
        <Button variant="link" size="none" className="text-sm" onClick={() => open(patientEmail ?? '')}>
          <Link2 aria-hidden /> Conectar con el paciente
        </Button>
      ) : s.status === 'invited' ? (
        <span className="inline-flex flex-wrap items-center gap-x-2">
          <span>Invitado el {formatDate(s.invitedAt)}</span>
          <span aria-hidden>·</span>
          <Button variant="link" size="none" className="text-sm" onClick={() => open(s.email)}>
            <Send aria-hidden /> Reenviar
          </Button>
        </span>
      ) : (
        <span className="inline-flex flex-wrap items-center gap-x-2">
          <span>Conectado desde el {formatDate(s.connectedAt)}</span>
          <span aria-hidden>·</span>
          <Button variant="link" size="none" className="text-sm" onClick={() => setConfirming(true)}>
            <Link2Off aria-hidden /> Desconectar
          </Button>
        </span>
      )}
      <Modal
        open={inviting}
        onOpenChange={(o) => !o && setInviting(false)}
        size="sm"
        title="Conectar con el paciente"
        description={`Enviaremos a ${patientName} un enlace para conectar su ficha con Diván: verá sus sesiones y documentos y podrá escribirte.`}
        footer={
          <>
            <Button variant="ghost" onClick={() => setInviting(false)}>
              Cancelar
            </Button>
            <Button onClick={send} loading={invite.isPending} disabled={!email.trim()}>
              Enviar invitación
            </Button>
          </>
        }
      >
        <div className="grid gap-3">
          {error ? <Alert variant="error">{error}</Alert> : null}
          <Field label="Email del paciente">
            <Input type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
          </Field>
        </div>
      </Modal>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="¿Desconectar al paciente?"
        description={`${patientName} dejará de ver su ficha en Diván y no podrá escribirte. Podrás invitarle de nuevo cuando quieras.`}
        confirmLabel="Desconectar"
        onConfirm={async () => {
          await disconnect.mutateAsync();
          toast.success(`${patientName} ya no está conectado`);
        }}
      />
    </>
  );
}
