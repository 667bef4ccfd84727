import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Editor } from '@tiptap/react';
import { Eye, Plus, RotateCw, Save } from 'lucide-react';
import {
  CONSENT_DATA_FIELDS,
  CONSENT_DOCUMENT_TITLE_MAX,
  CONSENT_SECTIONS_MAX,
  CONSENT_TEMPLATE_NAME_MAX,
  type ConsentTemplate,
  type ConsentVariable,
} from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { isApiError } from '@/lib/api-client';
import { messageOf } from '@/lib/error-message';
import { toast } from '@/lib/toast';
import { useUnsavedChanges } from '@/lib/unsaved-changes';
import { useCreateTemplate, useUpdateTemplate } from '../api/consent-templates-api';
import { bodyOf, emptySection, fingerprint, modelOf, move, problemsOf, type EditorModel, type SectionModel } from './editor-model';
import { SectionEditor } from './section-editor';
import { TemplatePreview } from './template-preview';
import { DataAskedCard, ErrorText, SignaturesCard, VariableChips } from './template-parts';

type Props = {
  wid: string;
  template: ConsentTemplate | null;
  initial: EditorModel;
  /** Reloads the latest version (after another member saved), discarding what is on screen. */
  onReload: () => Promise<void>;
};

/** Paths of the contract's «required» messages: shown once saving is tried, not while a blank template is filled. */
const onlyOnSave = (path: string) => path === 'name' || path === 'documentTitle' || path.endsWith('.checkbox.label');

export function TemplateEditor({ wid, template, initial, onReload }: Props) {
  const navigate = useNavigate();
  const [baseline, setBaseline] = useState(initial);
  const [model, setModel] = useState(initial);
  const [attempted, setAttempted] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [previewing, setPreviewing] = useState(false);
  const [reloading, setReloading] = useState(false);
  const dirty = fingerprint(model) !== fingerprint(baseline);
  const { release } = useUnsavedChanges(dirty);
  const create = useCreateTemplate(wid);
  const update = useUpdateTemplate(wid);
  const saving = create.isPending || update.isPending;
  const activeEditor = useRef<Editor | null>(null);

  const all = problemsOf(model);
  const problems = Object.fromEntries(Object.entries(all).filter(([p]) => attempted || !onlyOnSave(p)));
  const outdated = isApiError(error) && error.code === 'consent_invalid_version';

  const change = (patch: Partial<EditorModel>) => setModel((m) => ({ ...m, ...patch }));
  const changeSection = (key: string, patch: Partial<SectionModel>) =>
    setModel((m) => ({ ...m, sections: m.sections.map((s) => (s.key === key ? { ...s, ...patch } : s)) }));
  const toggleData = (party: keyof EditorModel['data'], field: (typeof CONSENT_DATA_FIELDS.values)[number], on: boolean) =>
    setModel((m) => {
      const set = new Set(m.data[party]);
      if (on) set.add(field);
      else set.delete(field);
      return { ...m, data: { ...m.data, [party]: CONSENT_DATA_FIELDS.values.filter((f) => set.has(f)) } };
    });

  const moveSection = (index: number, by: -1 | 1) => {
    const key = model.sections[index]!.key;
    setModel((m) => ({ ...m, sections: move(m.sections, index, by) }));
    // The focus stays with the section it moved; at an end, on the other arrow.
    const to = index + by;
    const atEnd = to === 0 || to === model.sections.length - 1;
    requestAnimationFrame(() => document.getElementById(`${key}-${atEnd ? (by < 0 ? 'down' : 'up') : by < 0 ? 'up' : 'down'}`)?.focus());
  };
  const removeSection = (index: number) => setModel((m) => ({ ...m, sections: m.sections.filter((_, i) => i !== index) }));
  const addSection = () => {
    const s = emptySection();
    setModel((m) => ({ ...m, sections: [...m.sections, s] }));
    requestAnimationFrame(() => document.getElementById(`${s.key}-up`)?.closest('li')?.querySelector('input')?.focus());
  };

  const onEditor = useCallback((editor: Editor) => {
    editor.on('focus', () => {
      activeEditor.current = editor;
    });
  }, []);

  const insertVariable = (name: ConsentVariable) => {
    const text = `{{${name}}}`;
    const editor = activeEditor.current;
    if (editor && !editor.isDestroyed) {
      editor.chain().focus().insertContent(text).run();
      return;
    }
    void navigator.clipboard?.writeText(text).then(
      () => toast.info(`${text} copiada: pégala en el texto.`),
      () => toast.info(`Escribe ${text} en el texto.`),
    );
  };

  const save = async () => {
    setAttempted(true);
    const found = problemsOf(model);
    if (Object.keys(found).length) {
      // The first field with a problem: the user sees why nothing was saved.
      requestAnimationFrame(() =>
        document
          .querySelector<HTMLElement>('[role="alert"], [aria-invalid="true"]')
          ?.scrollIntoView({ block: 'center', behavior: 'smooth' }),
      );
      return;
    }
    setError(null);
    const body = bodyOf(model);
    // The therapist's signature as it was: not sent again (the server keeps who drew it and when).
    if (body.therapistSignature && body.therapistSignature === baseline.therapistSignature && template) delete body.therapistSignature;
    try {
      const saved = template
        ? await update.mutateAsync({ id: template.id, body: { ...body, baseVersion: template.version } })
        : await create.mutateAsync(body);
      const fresh = modelOf(saved);
      setBaseline(fresh);
      setModel(fresh);
      setAttempted(false);
      release();
      if (!template) {
        toast.success('Plantilla creada');
        void navigate(`/consents/editor/${saved.id}`, { replace: true });
      } else toast.success(saved.version === template.version ? 'No había cambios que guardar' : `Guardada la versión ${saved.version}`);
    } catch (e) {
      setError(e);
    }
  };

  const reload = async () => {
    setReloading(true);
    try {
      release();
      await onReload();
    } finally {
      setReloading(false);
    }
  };

  return (
    <form
      noValidate
      className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-6"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {outdated ? (
        <Alert variant="error" className="grid gap-3">
          <p>{messageOf(error)}</p>
          <p>Si vuelves a cargarla verás la última versión y perderás los cambios que no has guardado aquí.</p>
          <div>
            <Button type="button" variant="outline" size="sm" loading={reloading} onClick={() => void reload()}>
              <RotateCw aria-hidden /> Volver a cargar la última versión
            </Button>
          </div>
        </Alert>
      ) : error ? (
        <Alert variant="error">
          <p>{messageOf(error)}</p>
          {isApiError(error) && error.fields.length ? (
            <ul className="mt-1 list-disc pl-5">
              {error.fields.map((f) => (
                <li key={`${f.path}:${f.message}`}>{f.message}</li>
              ))}
            </ul>
          ) : null}
        </Alert>
      ) : null}
      {attempted && Object.keys(all).length ? (
        <Alert variant="error">
          <p>
            Revisa {Object.keys(all).length === 1 ? 'el campo marcado' : `los ${Object.keys(all).length} campos marcados`} antes de guardar:
          </p>
          <ul className="mt-1 list-disc pl-5">
            {[...new Set(Object.values(all))].map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </Alert>
      ) : null}

      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>Documento</CardTitle>
          <CardDescription>El nombre es para ti; el título es el que lee quien firma.</CardDescription>
        </CardHeader>
        <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4 sm:grid-cols-2">
          <Field label="Nombre de la plantilla" error={problems.name}>
            <Input value={model.name} maxLength={CONSENT_TEMPLATE_NAME_MAX} onChange={(e) => change({ name: e.target.value })} />
          </Field>
          <Field label="Título del documento" error={problems.documentTitle}>
            <Input
              value={model.documentTitle}
              maxLength={CONSENT_DOCUMENT_TITLE_MAX}
              onChange={(e) => change({ documentTitle: e.target.value })}
            />
          </Field>
        </CardContent>
      </Card>

      <DataAskedCard data={model.data} problems={problems} onToggle={toggleData} />

      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>Secciones</CardTitle>
          <CardDescription>
            El texto del documento. Una sección puede llevar una casilla (aceptar la grabación, el contacto por email…), obligatoria o no.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4">
          <VariableChips onInsert={insertVariable} />
          <ErrorText>{problems.sections}</ErrorText>
          <ol className="grid grid-cols-[minmax(0,1fr)] gap-4">
            {model.sections.map((s, i) => (
              <SectionEditor
                key={s.key}
                section={s}
                index={i}
                count={model.sections.length}
                problems={problems}
                onChange={(patch) => changeSection(s.key, patch)}
                onMove={(by) => moveSection(i, by)}
                onRemove={() => removeSection(i)}
                onEditor={onEditor}
              />
            ))}
          </ol>
          <div>
            <Button type="button" variant="outline" onClick={addSection} disabled={model.sections.length >= CONSENT_SECTIONS_MAX}>
              <Plus aria-hidden /> Añadir sección
            </Button>
          </div>
        </CardContent>
      </Card>

      <SignaturesCard signatures={model.signatures} therapistSignature={model.therapistSignature} problems={problems} onChange={change} />

      <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center justify-between gap-2 border-t bg-background/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-lg sm:border sm:px-4">
        <span className="w-full text-[0.8125rem] text-muted-foreground sm:w-auto sm:text-sm" aria-live="polite">
          {dirty ? 'Cambios sin guardar' : template ? `Versión ${template.version} guardada` : ''}
        </span>
        <div className="flex flex-1 justify-end gap-2 sm:flex-none">
          <Button type="button" variant="outline" className="flex-1 sm:flex-none" onClick={() => setPreviewing(true)}>
            <Eye aria-hidden /> Vista previa
          </Button>
          <Button type="submit" loading={saving} className="flex-1 sm:flex-none">
            <Save aria-hidden />
            {template ? (
              <>
                <span className="sm:hidden">Guardar</span>
                <span className="hidden sm:inline">Guardar nueva versión</span>
              </>
            ) : (
              'Crear plantilla'
            )}
          </Button>
        </div>
      </div>

      <TemplatePreview model={model} open={previewing} onOpenChange={setPreviewing} />
    </form>
  );
}
