import { useState } from 'react';
import { disableSelfManagedRolesBody } from '@divan/core';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast } from '@/lib/toast';
import { useDisableSelfManagedRoles } from '../api/roles-api';

/** Irreversible, so the owner types the word (spec §5: the field must equal DESACTIVAR). */
export function DisableSelfManagedDialog({
  workspaceId,
  open,
  onOpenChange,
}: {
  workspaceId: string;
  open: boolean;
  onOpenChange: (o: boolean) => void;
}) {
  const disable = useDisableSelfManagedRoles(workspaceId);
  const [word, setWord] = useState('');
  const valid = disableSelfManagedRolesBody.safeParse({ confirmation: word.trim() }).success;

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(o) => {
        if (!o) setWord('');
        onOpenChange(o);
      }}
      title="¿Desactivar la gestión propia de roles?"
      description="Los roles quedarán tal como están ahora: nadie podrá crear, editar ni eliminar roles en este espacio. Esta acción no se puede deshacer."
      confirmLabel="Desactivar para siempre"
      canConfirm={valid}
      onConfirm={async () => {
        await disable.mutateAsync(word.trim());
        toast.success('Gestión propia de roles desactivada');
      }}
    >
      <Field label="Escribe DESACTIVAR para confirmar">
        <Input value={word} onChange={(e) => setWord(e.target.value)} autoComplete="off" autoCapitalize="characters" spellCheck={false} />
      </Field>
    </ConfirmDialog>
  );
}
