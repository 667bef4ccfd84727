import { lazy, Suspense, useEffect, useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { historyEntryBody, type HistoryEntry } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { isoDateToDmy } from '@/lib/format';
import { useSaveForm } from '@/lib/use-save-form';
import { useSaveEntry } from '../api/history-api';
import { Modal } from '../components/modal';
import { Skeleton } from '../components/skeleton';
import { Switch } from '../components/switch';
import { placeServerError } from '../utils/errors';
import { todayDmy, toIsoDay, viaContract } from '../utils/form-schema';

export const loadEditor = () => import('./rich-text-editor');
const RichTextEditor = lazy(loadEditor);

const entryForm = viaContract(
  z.object({ title: z.string(), date: z.string(), body: z.string(), private: z.boolean() }),
  (v) => ({ ...v, date: toIsoDay(v.date) }),
  historyEntryBody,
);
type Values = z.input<typeof entryForm>;
type Out = z.output<typeof entryForm>;

const valuesOf = (entry: HistoryEntry | null): Values =>
  entry ? { title: entry.title, date: isoDateToDmy(entry.date), body: entry.body, private: entry.private } : { title: '', date: todayDmy(), body: '', private: false };

type Props = {
  wid: string;
  pid: string;
  /** null: closed; 'new'; or the entry being edited. */
  target: HistoryEntry | 'new' | null;
  /** The author may change who sees an entry; other editors may not. */
  canChangePrivacy: (entry: HistoryEntry | null) => boolean;
  onClose: () => void;
};

export function EntryEditorDialog({ wid, pid, target, canChangePrivacy, onClose }: Props) {
  const entry = target === 'new' ? null : target;
  const save = useSaveEntry(wid, pid);
  const form = useForm<Values, unknown, Out>({ resolver: zodResolver(entryForm), defaultValues: valuesOf(entry) });
  const { onSubmit, formError, setFormError } = useSaveForm(form, {
    save: (body) => save.mutateAsync({ id: entry?.id ?? null, body }),
    success: entry ? 'Entrada actualizada' : 'Entrada guardada',
    onSaved: () => onClose(),
    placeError: (error, setError) => placeServerError(error, setError, ['title', 'date', 'body']),
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  const bodyLabel = useId();
  const privacyId = useId();

  useEffect(() => {
    if (target) {
      form.reset(valuesOf(target === 'new' ? null : target));
      setFormError(null);
    }
  }, [target, form, setFormError]);

  return (
    <Modal
      open={!!target}
      onOpenChange={(o) => !o && onClose()}
      size="lg"
      modalLock={isDirty}
      title={entry ? 'Editar entrada' : 'Nueva entrada'}
      description={entry ? 'La versión anterior se guarda en el historial de cambios.' : 'Nota de sesión, evolución o informe.'}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit" form="history-entry" loading={isSubmitting}>
            {entry ? 'Guardar cambios' : 'Guardar entrada'}
          </Button>
        </>
      }
    >
      <form id="history-entry" onSubmit={onSubmit} noValidate className="grid gap-5">
        {formError ? <Alert variant="error">{formError}</Alert> : null}
        <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_10rem]">
          <Field label="Título" error={errors.title?.message}>
            <Input autoComplete="off" placeholder="Ej. Sesión 4: exposición gradual" {...form.register('title')} />
          </Field>
          <Field label="Fecha" error={errors.date?.message} hint="DD/MM/AAAA">
            <Input inputMode="numeric" placeholder="DD/MM/AAAA" autoComplete="off" {...form.register('date')} />
          </Field>
        </div>
        <div className="grid gap-1.5">
          <span id={bodyLabel} className="text-sm font-medium leading-none">
            Texto
          </span>
          <Controller
            control={form.control}
            name="body"
            render={({ field }) => (
              <Suspense fallback={<Skeleton className="h-72 w-full" />}>
                {/* Keyed by entry: the editor reads its content once. */}
                <RichTextEditor key={entry?.id ?? 'new'} value={field.value} onChange={field.onChange} labelledBy={bodyLabel} invalid={!!errors.body} />
              </Suspense>
            )}
          />
          {errors.body?.message ? (
            <p role="alert" className="text-[0.8125rem] font-medium text-destructive">
              {errors.body.message}
            </p>
          ) : null}
        </div>
        {canChangePrivacy(entry) ? (
          <Controller
            control={form.control}
            name="private"
            render={({ field }) => (
              <div className="flex items-start gap-3 rounded-lg border bg-muted/30 p-3">
                <Switch id={privacyId} checked={field.value} onCheckedChange={field.onChange} aria-describedby={`${privacyId}-hint`} />
                <div className="grid gap-0.5">
                  <Label htmlFor={privacyId}>Entrada privada</Label>
                  <p id={`${privacyId}-hint`} className="text-[0.8125rem] text-muted-foreground">
                    Solo tú podrás verla. No aparece para otros miembros ni en las exportaciones.
                  </p>
                </div>
              </div>
            )}
          />
        ) : null}
      </form>
    </Modal>
  );
}
