import { useState, type FormEvent } from 'react';
import { KeyRound } from 'lucide-react';
import { PASSKEY_NAME_MAX, type Passkey } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { EmptyState, LoadError } from '@/components/ui/states';
import { formatDate, formatTime } from '@/lib/format';
import { passkeyFailure, passkeysUnavailable } from '@/lib/passkeys';
import { toast } from '@/lib/toast';
import { useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey } from '../api/passkeys-api';

const when = (iso: string) => `${formatDate(iso)}, ${formatTime(iso)}`;

/** A name the person can recognise later: the device they are on, as far as the browser says. */
function suggestedName() {
  const ua = typeof navigator === 'undefined' ? '' : navigator.userAgent;
  if (/iPhone/.test(ua)) return 'iPhone';
  if (/iPad/.test(ua)) return 'iPad';
  if (/Android/.test(ua)) return 'Móvil Android';
  if (/Mac OS X/.test(ua)) return 'Mac';
  if (/Windows/.test(ua)) return 'Ordenador con Windows';
  return 'Mi llave de acceso';
}

/**
 * Ajustes › Seguridad › «Llaves de acceso» (issue 32): add one with a name (the browser creates it), see each one's last
 * use, rename, delete (a sensitive action: the API client asks for step-up when needed).
 */
export function PasskeysCard() {
  const { data, isPending, error, refetch } = usePasskeys();
  const remove = useRemovePasskey();
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const unavailable = passkeysUnavailable();
  const supported = unavailable === null;

  const addButton = (
    <Button type="button" onClick={() => setAdding(true)} disabled={!supported}>
      <KeyRound aria-hidden /> Añadir una llave de acceso
    </Button>
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Llaves de acceso</CardTitle>
        <CardDescription>
          Entra sin contraseña con la huella, la cara o el PIN de tu dispositivo, o con una llave de seguridad. También sirven como segundo
          paso al entrar con contraseña.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {unavailable ? <Alert>{unavailable}</Alert> : null}
        {error ? (
          <LoadError error={error} onRetry={() => void refetch()} what="tus llaves de acceso" />
        ) : isPending ? (
          <Spinner label="Cargando tus llaves de acceso" />
        ) : data.length === 0 ? (
          <EmptyState
            icon={<KeyRound />}
            title="Aún no tienes llaves de acceso"
            text="Añade una para entrar a Diván de forma más rápida y segura."
          >
            {addButton}
          </EmptyState>
        ) : (
          <>
            <ul className="divide-y rounded-lg border" aria-label="Tus llaves de acceso">
              {data.map((p) => (
                <li key={p.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                  <div className="min-w-0">
                    <p className="truncate font-medium">{p.name}</p>
                    <p className="text-sm text-muted-foreground">
                      Añadida el {formatDate(p.createdAt)} · {p.lastUsedAt ? `Último uso: ${when(p.lastUsedAt)}` : 'Aún no se ha usado'}
                      {p.backedUp ? ' · Sincronizada' : ''}
                    </p>
                  </div>
                  <div className="flex gap-2">
                    <Button
                      type="button"
                      variant="outline"
                      size="sm"
                      onClick={() => setRenaming(p)}
                      aria-label={`Cambiar el nombre de ${p.name}`}
                    >
                      Cambiar nombre
                    </Button>
                    <Button type="button" variant="ghost" size="sm" onClick={() => setRemoving(p)} aria-label={`Eliminar ${p.name}`}>
                      Eliminar
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
            <div>{addButton}</div>
          </>
        )}
      </CardContent>
      {adding ? <AddPasskeyDialog onClose={() => setAdding(false)} /> : null}
      {renaming ? <RenamePasskeyDialog passkey={renaming} onClose={() => setRenaming(null)} /> : null}
      <ConfirmDialog
        open={!!removing}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={`¿Eliminar «${removing?.name ?? ''}»?`}
        description="No podrás volver a entrar con esta llave de acceso. Si la quitas también del dispositivo, hazlo en sus ajustes."
        confirmLabel="Eliminar"
        destructive
        onConfirm={async () => {
          if (!removing) return;
          await remove.mutateAsync(removing.id);
          toast.success('Llave de acceso eliminada');
        }}
      />
    </Card>
  );
}

function NameForm(props: {
  initial: string;
  submitLabel: string;
  busyLabel?: string;
  onSubmit: (name: string) => Promise<void>;
  onCancel: () => void;
}) {
  const [name, setName] = useState(props.initial);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const trimmed = name.trim();
    setError(null);
    if (!trimmed) return setFieldError('El campo nombre es obligatorio');
    if (trimmed.length > PASSKEY_NAME_MAX) return setFieldError(`No puede tener más de ${PASSKEY_NAME_MAX} caracteres`);
    setFieldError(undefined);
    setPending(true);
    try {
      await props.onSubmit(trimmed);
    } catch (err) {
      setError(passkeyFailure(err));
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-5">
      {error ? <Alert variant="error">{error}</Alert> : null}
      <Field label="Nombre de la llave" error={fieldError} hint="Por ejemplo, el dispositivo donde la guardas.">
        <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={PASSKEY_NAME_MAX} autoFocus autoComplete="off" />
      </Field>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="ghost" onClick={props.onCancel} disabled={pending}>
          Cancelar
        </Button>
        <Button type="submit" loading={pending}>
          {props.submitLabel}
        </Button>
      </div>
    </form>
  );
}

function AddPasskeyDialog({ onClose }: { onClose: () => void }) {
  const add = useAddPasskey();
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title="Añadir una llave de acceso"
      description="Ponle un nombre y sigue los pasos de tu navegador o dispositivo."
      size="sm"
    >
      <NameForm
        initial={suggestedName()}
        submitLabel="Crear la llave"
        onCancel={onClose}
        onSubmit={async (name) => {
          await add.mutateAsync(name);
          toast.success('Llave de acceso añadida');
          onClose();
        }}
      />
    </Modal>
  );
}

function RenamePasskeyDialog({ passkey, onClose }: { passkey: Passkey; onClose: () => void }) {
  const rename = useRenamePasskey();
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title="Cambiar el nombre" size="sm">
      <NameForm
        initial={passkey.name}
        submitLabel="Guardar"
        onCancel={onClose}
        onSubmit={async (name) => {
          await rename.mutateAsync({ id: passkey.id, name });
          toast.success('Nombre guardado');
          onClose();
        }}
      />
    </Modal>
  );
}
