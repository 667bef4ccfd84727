import {
  CONSENT_DATA_FIELDS,
  CONSENT_PARTIES,
  CONSENT_SIGNERS,
  CONSENT_VARIABLES,
  CONSENT_VARIABLE_NAMES,
  type ConsentVariable,
} from '@divan/core';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { SignatureInput } from '../components/signature-input';
import type { EditorModel } from './editor-model';

type Problems = Record<string, string | undefined>;
type Party = (typeof CONSENT_PARTIES.values)[number];
type DataField = (typeof CONSENT_DATA_FIELDS.values)[number];

export function ErrorText({ id, children }: { id?: string; children?: string }) {
  if (!children) return null;
  return (
    <p id={id} role="alert" className="text-[0.8125rem] font-medium text-destructive">
      {children}
    </p>
  );
}

/** «Datos que se piden»: what each signer writes when signing. */
export function DataAskedCard({
  data,
  problems,
  onToggle,
}: {
  data: EditorModel['data'];
  problems: Problems;
  onToggle: (party: Party, field: DataField, on: boolean) => void;
}) {
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Datos que se piden</CardTitle>
        <CardDescription>Lo que cada firmante escribe al firmar. Para un menor, pide los datos de sus tutores.</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-3">
        <div className="grid gap-4 sm:grid-cols-3">
          {CONSENT_PARTIES.values.map((party) => (
            <fieldset
              key={party}
              className="grid content-start gap-2 rounded-md border p-3"
              aria-invalid={problems[`data.${party}`] ? true : undefined}
            >
              <legend className="px-1 text-sm font-semibold">{CONSENT_PARTIES.labels[party]}</legend>
              {CONSENT_DATA_FIELDS.values.map((field) => (
                <label key={field} className="flex items-center gap-2.5 text-sm">
                  <input
                    type="checkbox"
                    checked={data[party].includes(field)}
                    onChange={(e) => onToggle(party, field, e.target.checked)}
                    className="size-4 accent-[var(--color-primary)]"
                  />
                  {CONSENT_DATA_FIELDS.labels[field]}
                </label>
              ))}
              <ErrorText>{problems[`data.${party}`]}</ErrorText>
            </fieldset>
          ))}
        </div>
        <ErrorText>{problems.data}</ErrorText>
      </CardContent>
    </Card>
  );
}

/** The variables, as chips that insert themselves where the text is being written. */
export function VariableChips({ onInsert }: { onInsert: (v: ConsentVariable) => void }) {
  return (
    <div className="grid gap-2 rounded-md border border-dashed p-3" role="group" aria-labelledby="consent-variables">
      <p id="consent-variables" className="text-sm font-medium">
        Variables{' '}
        <span className="font-normal text-muted-foreground">
          · pulsa una para insertarla en el texto donde estás escribiendo; al enviar se rellenan con los datos de la ficha.
        </span>
      </p>
      <ul className="flex flex-wrap gap-2">
        {CONSENT_VARIABLE_NAMES.map((v) => (
          <li key={v}>
            <button
              type="button"
              onMouseDown={(e) => e.preventDefault()} // keep the cursor in the text
              onClick={() => onInsert(v)}
              title={CONSENT_VARIABLES[v]}
              aria-label={`Insertar {{${v}}}: ${CONSENT_VARIABLES[v]}`}
              className="grid rounded-md border bg-card px-2.5 py-1 text-left hover:border-ring hover:bg-accent/40"
            >
              <code className="text-xs font-semibold">{`{{${v}}}`}</code>
              <span className="text-xs text-muted-foreground">{CONSENT_VARIABLES[v]}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** «Firmas»: who signs, and the therapist's own drawn signature when they sign. */
export function SignaturesCard({
  signatures,
  therapistSignature,
  problems,
  onChange,
}: {
  signatures: EditorModel['signatures'];
  therapistSignature: EditorModel['therapistSignature'];
  problems: Problems;
  onChange: (patch: Partial<EditorModel>) => void;
}) {
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Firmas</CardTitle>
        <CardDescription>
          Quién firma el documento. Para un menor firman sus tutores; con dos tutores, cada uno con su enlace.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4">
        <fieldset className="grid gap-2 sm:grid-cols-2">
          <legend className="mb-2 text-sm font-medium">Firman</legend>
          {CONSENT_SIGNERS.values.map((signer) => (
            <div key={signer} className="grid gap-1">
              <label className="flex items-center gap-2.5 text-sm">
                <input
                  type="checkbox"
                  checked={signatures[signer]}
                  onChange={(e) => onChange({ signatures: { ...signatures, [signer]: e.target.checked } })}
                  className="size-4 accent-[var(--color-primary)]"
                />
                {CONSENT_SIGNERS.labels[signer]}
              </label>
              <ErrorText>{problems[`signatures.${signer}`]}</ErrorText>
            </div>
          ))}
        </fieldset>
        <ErrorText>{problems.signatures}</ErrorText>
        {signatures.therapist ? (
          <div className="grid gap-2 rounded-md border p-3">
            <p className="text-sm font-medium">Tu firma</p>
            <p className="text-[0.8125rem] text-muted-foreground">
              Se guarda con la plantilla y aparece en los documentos que envíes tú; otro terapeuta que la envíe firma con la suya.
            </p>
            <SignatureInput
              value={therapistSignature}
              onChange={(therapistSignature) => onChange({ therapistSignature })}
              label="Firma del terapeuta"
              invalid={!!problems.therapistSignature}
            />
            <ErrorText>{problems.therapistSignature}</ErrorText>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
