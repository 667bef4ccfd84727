import { CONSENT_DATA_FIELDS, CONSENT_PARTIES, CONSENT_SIGNERS, fillVariables, type ConsentVariableValues } from '@divan/core';
import { Modal } from '@/components/ui/modal';
import { sanitizeHistoryHtml } from '@/components/rich-text/safe-html';
import '@/components/rich-text/rich-text.css';
import type { EditorModel } from './editor-model';

/** Sample values for the preview: what a sent consent fills from the patient's file. */
export const SAMPLE_VALUES: ConsentVariableValues = {
  'paciente.nombre': 'Lucía Romero García',
  'terapeuta.nombre': 'Marta Ruiz Sanz',
  'terapeuta.colegiado': 'M-12345',
  'espacio.nombre': 'Consulta Ruiz',
  fecha: new Date().toLocaleDateString('es-ES', { day: '2-digit', month: '2-digit', year: 'numeric' }),
};

const fill = (text: string) => fillVariables(text, SAMPLE_VALUES);
const fillHtml = (html: string) => sanitizeHistoryHtml(fillVariables(html, SAMPLE_VALUES, { html: true }));

/** The document as the signer will see it on the signing page, with sample values in the variables. */
export function PreviewDocument({ model }: { model: EditorModel }) {
  const asked = CONSENT_PARTIES.values.filter((p) => model.data[p].length);
  const signers = CONSENT_SIGNERS.values.filter((s) => model.signatures[s]);
  return (
    <article className="mx-auto grid w-full max-w-2xl gap-6" data-testid="consent-preview">
      <h2 className="font-display text-2xl font-semibold leading-tight tracking-tight">{fill(model.documentTitle) || 'Sin título'}</h2>
      {model.sections.map((s, i) => (
        <section key={s.key} className="grid gap-2" aria-label={s.title ? fill(s.title) : `Sección ${i + 1}`}>
          {s.title ? <h3 className="text-base font-semibold">{fill(s.title)}</h3> : null}
          {/* Sanitised as the clinical history is: the server keeps the same allow-list. */}
          <div className="rich-text text-[0.9375rem]" dangerouslySetInnerHTML={{ __html: fillHtml(s.body) }} />
          {s.hasCheckbox ? (
            <label className="mt-1 flex items-start gap-2.5 rounded-md border bg-muted/30 px-3 py-2.5 text-sm">
              <input type="checkbox" className="mt-0.5 size-4 accent-[var(--color-primary)]" />
              <span>
                {fill(s.checkboxLabel) || 'Casilla sin texto'}
                {s.required ? <span className="text-muted-foreground"> (obligatoria)</span> : null}
              </span>
            </label>
          ) : null}
        </section>
      ))}
      {asked.map((p) => (
        <section key={p} className="grid gap-2">
          <h3 className="text-base font-semibold">Datos: {CONSENT_PARTIES.labels[p]}</h3>
          <div className="grid gap-2 sm:grid-cols-2">
            {model.data[p].map((f) => (
              <div key={f} className="grid gap-1">
                <span className="text-[0.8125rem] text-muted-foreground">{CONSENT_DATA_FIELDS.labels[f]}</span>
                <span className="h-9 rounded-md border border-dashed bg-card" aria-hidden />
              </div>
            ))}
          </div>
        </section>
      ))}
      {signers.length ? (
        <section className="grid gap-2">
          <h3 className="text-base font-semibold">Firmas</h3>
          <div className="grid gap-3 sm:grid-cols-2">
            {signers.map((s) => (
              <div key={s} className="grid gap-1">
                <div className="grid h-24 place-items-center rounded-md border border-dashed bg-white">
                  {s === 'therapist' && model.therapistSignature ? (
                    <img src={model.therapistSignature} alt="Firma del terapeuta" className="max-h-20 object-contain" />
                  ) : null}
                </div>
                <span className="text-[0.8125rem] text-muted-foreground">{CONSENT_SIGNERS.labels[s]}</span>
              </div>
            ))}
          </div>
        </section>
      ) : null}
    </article>
  );
}

/** The preview in a dialog, from the editor. */
export function TemplatePreview({
  model,
  open,
  onOpenChange,
}: {
  model: EditorModel;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title="Vista previa"
      description="Así verá el documento quien lo firme. Las variables llevan datos de ejemplo."
    >
      <PreviewDocument model={model} />
    </Modal>
  );
}
