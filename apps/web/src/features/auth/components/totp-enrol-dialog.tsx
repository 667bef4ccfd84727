import { useQueryClient } from '@tanstack/react-query';
import { Modal } from '@/components/ui/modal';
import { secondFactorKey } from '../api/second-factor-api';
import { TotpEnrolment } from './totp-enrolment';

/** Ajustes › Seguridad: the authenticator app set up in a dialog. */
export function TotpEnrolDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const qc = useQueryClient();
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Configurar app de autenticación" modalLock>
      {open ? (
        <TotpEnrolment onEnabled={() => void qc.invalidateQueries({ queryKey: secondFactorKey })} onFinished={() => onOpenChange(false)} />
      ) : null}
    </Modal>
  );
}
