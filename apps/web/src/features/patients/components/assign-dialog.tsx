import { useEffect, useState } from 'react';
import { toast } from '@/lib/toast';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { useAssignPatient, useTherapists } from '../api/patients-api';
import { useWorkspaceScope } from '../api/workspace';
import { messageOf } from '../utils/errors';
import { Modal } from '@/components/ui/modal';
import { NativeSelect } from '@/components/ui/native-select';

type Target = { id: string; name: string; therapistId: string | null };

/** Assign a patient to a member (or to nobody): permission `update patient_assignment`. */
export function AssignDialog({ target, onClose }: { target: Target | null; onClose: () => void }) {
  const { workspace } = useWorkspaceScope();
  const therapists = useTherapists(workspace.id, !!target);
  const assign = useAssignPatient(workspace.id);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (target) {
      setValue(target.therapistId ?? '');
      setError(null);
    }
  }, [target]);

  const save = () => {
    if (!target) return;
    assign.mutate(
      { pid: target.id, therapistId: value || null },
      {
        onSuccess: (p) => {
          toast.success(
            p.assignedTherapist ? `Terapeuta de ${target.name}: ${p.assignedTherapist.name}` : `${target.name} queda sin terapeuta`,
          );
          onClose();
        },
        onError: (e) => setError(messageOf(e)),
      },
    );
  };

  return (
    <Modal
      open={!!target}
      onOpenChange={(o) => !o && onClose()}
      size="sm"
      title="Asignar terapeuta"
      description={target ? `¿Quién atiende a ${target.name}?` : undefined}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancelar
          </Button>
          <Button onClick={save} loading={assign.isPending} disabled={!therapists.data}>
            Guardar
          </Button>
        </>
      }
    >
      <div className="grid gap-4">
        {error ? <Alert variant="error">{error}</Alert> : null}
        {therapists.isError ? <Alert variant="error">{messageOf(therapists.error)}</Alert> : null}
        {therapists.data ? (
          <Field label="Terapeuta">
            <NativeSelect
              value={value}
              onChange={(e) => setValue(e.target.value)}
              placeholder="Sin asignar"
              options={therapists.data.map((t) => ({ value: t.id, label: t.name }))}
            />
          </Field>
        ) : therapists.isPending ? (
          <Spinner />
        ) : null}
      </div>
    </Modal>
  );
}
