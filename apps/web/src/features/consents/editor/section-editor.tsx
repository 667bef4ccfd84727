import { lazy, Suspense, useId } from 'react';
import type { Editor } from '@tiptap/react';
import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { CONSENT_CHECKBOX_LABEL_MAX, CONSENT_SECTION_TITLE_MAX } from '@divan/core';
import { problemsUnder, type Problems, type SectionModel } from './editor-model';

const RichTextEditor = lazy(() => import('@/components/rich-text/rich-text-editor'));

type Props = {
  section: SectionModel;
  index: number;
  count: number;
  problems: Problems;
  onChange: (patch: Partial<SectionModel>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  onEditor: (editor: Editor) => void;
};

/** One section: its title, its rich text, its optional checkbox; moved and removed with buttons (keyboard too). */
export function SectionEditor({ section: s, index, count, problems, onChange, onMove, onRemove, onEditor }: Props) {
  const id = useId();
  const bodyLabel = `${id}-body`;
  const base = `sections.${index}`;
  const bodyError = problems[`${base}.body`];
  const sectionError = problems[base];
  const n = index + 1;
  return (
    <li
      className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-4 rounded-lg border bg-card p-3 sm:p-4"
      aria-labelledby={`${id}-heading`}
      data-testid="consent-section"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`${id}-heading`} className="text-sm font-semibold text-muted-foreground">
          Sección {n}
          {s.title ? <span className="font-normal">: {s.title}</span> : null}
        </h3>
        <div className="flex items-center gap-1">
          <Button
            id={`${s.key}-up`}
            type="button"
            variant="ghost"
            size="sm"
            disabled={index === 0}
            onClick={() => onMove(-1)}
            aria-label={`Subir la sección ${n}`}
            title="Subir"
          >
            <ArrowUp aria-hidden />
          </Button>
          <Button
            id={`${s.key}-down`}
            type="button"
            variant="ghost"
            size="sm"
            disabled={index === count - 1}
            onClick={() => onMove(1)}
            aria-label={`Bajar la sección ${n}`}
            title="Bajar"
          >
            <ArrowDown aria-hidden />
          </Button>
          <Button
            type="button"
            variant="ghost"
            size="sm"
            className="text-destructive"
            disabled={count === 1}
            onClick={onRemove}
            aria-label={`Quitar la sección ${n}`}
            title="Quitar"
          >
            <Trash2 aria-hidden />
          </Button>
        </div>
      </div>
      {sectionError ? (
        <p role="alert" className="text-[0.8125rem] font-medium text-destructive">
          {sectionError}
        </p>
      ) : null}
      <Field label="Título de la sección" error={problems[`${base}.title`]}>
        <Input value={s.title} maxLength={CONSENT_SECTION_TITLE_MAX} onChange={(e) => onChange({ title: e.target.value })} />
      </Field>
      <div className="grid gap-1.5">
        <span id={bodyLabel} className="text-sm font-medium">
          Texto
        </span>
        <Suspense fallback={<div className="h-32 animate-pulse rounded-md border bg-muted/40" />}>
          <RichTextEditor
            value={s.body}
            onChange={(body) => onChange({ body })}
            labelledBy={bodyLabel}
            invalid={!!bodyError}
            placeholder="Escribe aquí el texto de la sección…"
            onEditor={onEditor}
          />
        </Suspense>
        {bodyError ? (
          <p role="alert" className="text-[0.8125rem] font-medium text-destructive">
            {bodyError}
          </p>
        ) : null}
      </div>
      <div className="grid gap-3 rounded-md bg-muted/30 p-3">
        <label className="flex items-center gap-2.5 text-sm font-medium">
          <input
            type="checkbox"
            checked={s.hasCheckbox}
            onChange={(e) => onChange({ hasCheckbox: e.target.checked })}
            className="size-4 accent-[var(--color-primary)]"
          />
          Con casilla para marcar
        </label>
        {s.hasCheckbox ? (
          <>
            <Field label="Texto de la casilla" error={problems[`${base}.checkbox.label`] ?? problemsUnder(problems, `${base}.checkbox`)[0]}>
              <Input
                value={s.checkboxLabel}
                maxLength={CONSENT_CHECKBOX_LABEL_MAX}
                placeholder="Acepto…"
                onChange={(e) => onChange({ checkboxLabel: e.target.value })}
              />
            </Field>
            <label className="flex items-center gap-2.5 text-sm">
              <input
                type="checkbox"
                checked={s.required}
                onChange={(e) => onChange({ required: e.target.checked })}
                className="size-4 accent-[var(--color-primary)]"
              />
              Obligatoria: sin marcarla no se puede firmar
            </label>
          </>
        ) : null}
      </div>
    </li>
  );
}
