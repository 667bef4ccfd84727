import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { historyEntryBody, type HistoryDraft, type HistoryEntry } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { formatDate, formatTime, isoDateToDmy } from '@/lib/format';
import { useSaveForm } from '@/lib/use-save-form';
import { useSaveEntry, type NoteSession } from '../api/history-api';
import { Modal } from '@/components/ui/modal';
import { Skeleton } from '../components/skeleton';
import { Switch } from '@/components/ui/switch';
import { placeServerError } from '../utils/errors';
import { todayDmy, toIsoDay, viaContract } from '../utils/form-schema';
import { useDraftAutosave, type DraftStatus } from './use-draft-autosave';

export const loadEditor = () => import('@/components/rich-text/rich-text-editor');
const RichTextEditor = lazy(loadEditor);

const entryForm = viaContract(
  z.object({ title: z.string(), date: z.string(), body: z.string(), private: z.boolean() }),
  (v) => ({ ...v, date: toIsoDay(v.date) }),
  historyEntryBody,
);
type Values = z.input<typeof entryForm>;
type Out = z.output<typeof entryForm>;

/** A note written from a session starts dated the session's day (not later than today) and titled after it. */
const valuesOf = (entry: HistoryEntry | null, session?: NoteSession): Values =>
  entry
    ? { title: entry.title, date: isoDateToDmy(entry.date), body: entry.body, private: entry.private }
    : session
      ? {
          title: `Sesión del ${formatDate(session.day)}`,
          date: isoDateToDmy(session.day < toIsoDay(todayDmy()) ? session.day : toIsoDay(todayDmy())),
          body: '',
          private: false,
        }
      : { title: '', date: todayDmy(), body: '', private: false };
const draftValues = (d: HistoryDraft): Values => ({ title: d.title, date: d.date, body: d.body, private: d.private });
const same = (a: Values, b: Values) => a.title === b.title && a.date === b.date && a.body === b.body && a.private === b.private;

/** "Borrador guardado" and the like, read out politely by screen readers. */
function DraftState({ status }: { status: DraftStatus }) {
  const text = { idle: '', saving: 'Guardando borrador…', saved: 'Borrador guardado', error: 'No se pudo guardar el borrador' }[status];
  return (
    <p
      role="status"
      aria-live="polite"
      className={status === 'error' ? 'mr-auto text-[0.8125rem] text-destructive' : 'mr-auto text-[0.8125rem] text-muted-foreground'}
    >
      {text}
    </p>
  );
}

type Props = {
  wid: string;
  pid: string;
  /** null: closed; 'new'; or the entry being edited. */
  target: HistoryEntry | 'new' | null;
  /** The caller's unsaved text for this target, kept on the server: the form starts from it. */
  draft: HistoryDraft | null;
  /** The author may change who sees an entry; other editors may not. */
  canChangePrivacy: (entry: HistoryEntry | null) => boolean;
  /** A new entry written as this session's note ("Escribir nota" in the calendar). */
  session?: NoteSession;
  onClose: () => void;
};

export function EntryEditorDialog({ wid, pid, target, draft, canChangePrivacy, session, onClose }: Props) {
  const entry = target === 'new' ? null : target;
  const save = useSaveEntry(wid, pid);
  const autosave = useDraftAutosave(wid, pid, entry?.id ?? null);
  // What is saved: a restored draft differs from it, so closing asks before throwing it away.
  const noteOf = entry ? undefined : session;
  const saved = useRef(valuesOf(entry, noteOf)).current;
  const [restored, setRestored] = useState(draft);
  const [confirming, setConfirming] = useState(false);
  // The editor reads its content once: a new key when the text is replaced under it.
  const [editorKey, setEditorKey] = useState(0);
  const form = useForm<Values, unknown, Out>({ resolver: zodResolver(entryForm), defaultValues: draft ? draftValues(draft) : saved });
  const { onSubmit, formError } = useSaveForm(form, {
    // The last keystrokes reach the draft first; the save then removes it on the server.
    save: async (body) => {
      await autosave.flush();
      return save.mutateAsync({ id: entry?.id ?? null, body, sessionId: noteOf?.id });
    },
    success: entry ? 'Entrada actualizada' : 'Entrada guardada',
    onSaved: () => onClose(),
    placeError: (error, setError) => placeServerError(error, setError, ['title', 'date', 'body']),
  });
  const { errors, isSubmitting } = form.formState;
  const bodyLabel = useId();
  const privacyId = useId();
  const { schedule } = autosave;

  // Every change by the user is autosaved; back to the saved text, the draft goes.
  useEffect(() => {
    const sub = form.watch((values, { name }) => {
      if (!name) return;
      const v = values as Values;
      schedule(same(v, saved) ? null : { title: v.title, date: v.date, body: v.body, private: v.private });
    });
    return () => sub.unsubscribe();
  }, [form, schedule, saved]);

  const unsaved = () => !same(form.getValues(), saved);
  /** Esc, ✕, Cancelar and outside clicks: typed text is never dropped without asking. */
  const requestClose = () => {
    if (isSubmitting) return;
    if (!unsaved()) return onClose();
    void autosave.flush();
    setConfirming(true);
  };
  const discardRestored = async () => {
    await autosave.discard();
    form.reset(saved);
    setRestored(null);
    setEditorKey((k) => k + 1);
  };

  return (
    <Modal
      open={!!target}
      onOpenChange={(o) => !o && requestClose()}
      size="lg"
      modalLock={form.formState.isDirty || !!restored}
      title={entry ? 'Editar entrada' : noteOf ? 'Nota de la sesión' : 'Nueva entrada'}
      description={
        entry
          ? 'La versión anterior se guarda en el historial de cambios.'
          : noteOf
            ? `Sesión del ${formatDate(noteOf.day)} a las ${noteOf.from}. La nota queda enlazada a la sesión.`
            : 'Nota de sesión, evolución o informe.'
      }
      footer={
        <>
          <DraftState status={autosave.status} />
          <Button variant="ghost" onClick={requestClose}>
            Cancelar
          </Button>
          <Button type="submit" form="history-entry" loading={isSubmitting}>
            {entry ? 'Guardar cambios' : 'Guardar entrada'}
          </Button>
        </>
      }
    >
      <form id="history-entry" onSubmit={onSubmit} noValidate className="grid gap-5">
        {restored ? (
          <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-primary/30 bg-primary/5 px-3 py-2 text-sm">
            <span>
              Recuperado el borrador sin guardar del {formatDate(restored.updatedAt)} {formatTime(restored.updatedAt)}.
            </span>
            <Button type="button" size="sm" variant="ghost" onClick={() => void discardRestored()}>
              Descartar borrador
            </Button>
          </div>
        ) : null}
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
                <RichTextEditor
                  key={`${entry?.id ?? 'new'}-${editorKey}`}
                  value={field.value}
                  onChange={field.onChange}
                  labelledBy={bodyLabel}
                  invalid={!!errors.body}
                />
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
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={entry ? '¿Descartar los cambios?' : '¿Descartar la entrada?'}
        description={
          entry ? 'Se perderán los cambios que has escrito en esta entrada.' : 'Se perderá el texto que has escrito en esta entrada.'
        }
        cancelLabel="Seguir editando"
        confirmLabel="Descartar"
        onConfirm={async () => {
          await autosave.discard();
          onClose();
        }}
      />
    </Modal>
  );
}
