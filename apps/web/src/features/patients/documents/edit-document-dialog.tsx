import { useEffect, useId, useState } from 'react';
import { DOCUMENT_NAME_MAX, type PatientDocument } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast } from '@/lib/toast';
import { useUpdateDocument } from '../api/documents-api';
import { Modal } from '@/components/ui/modal';
import { messageOf } from '../utils/errors';
import { TagInput } from './tag-input';

/** Rename a document and/or change its tags: one PATCH. */
export function EditDocumentDialog({
  wid,
  pid,
  doc,
  focus,
  onClose,
}: {
  wid: string;
  pid: string;
  doc: PatientDocument | null;
  focus: 'name' | 'tags';
  onClose: () => void;
}) {
  const update = useUpdateDocument(wid, pid);
  const [name, setName] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const tagsLabel = useId();

  useEffect(() => {
    if (doc) {
      setName(doc.name);
      setTags(doc.tags);
      setError(null);
      setNameError(null);
    }
  }, [doc]);

  const save = () => {
    if (!doc) return;
    if (!name.trim()) return setNameError('El campo nombre es obligatorio');
    update.mutate(
      { id: doc.id, body: { name: name.trim(), tags } },
      {
        onSuccess: () => {
          toast.success('Documento actualizado');
          onClose();
        },
        onError: (e) => setError(messageOf(e)),
      },
    );
  };

  return (
    <Modal
      open={!!doc}
      onOpenChange={(o) => !o && onClose()}
      size="sm"
      title={focus === 'name' ? 'Cambiar nombre' : 'Etiquetas'}
      description="Las etiquetas se comparten en todo el espacio de trabajo."
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancelar
          </Button>
          <Button onClick={save} loading={update.isPending}>
            Guardar
          </Button>
        </>
      }
    >
      <form
        className="grid gap-5"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        {error ? <Alert variant="error">{error}</Alert> : null}
        <Field label="Nombre" error={nameError ?? undefined}>
          <Input value={name} maxLength={DOCUMENT_NAME_MAX} autoFocus={focus === 'name'} onChange={(e) => setName(e.target.value)} />
        </Field>
        <div className="grid gap-1.5">
          <span id={tagsLabel} className="text-sm font-medium leading-none">
            Etiquetas
          </span>
          <TagInput wid={wid} value={tags} onChange={setTags} labelledBy={tagsLabel} />
        </div>
      </form>
    </Modal>
  );
}
