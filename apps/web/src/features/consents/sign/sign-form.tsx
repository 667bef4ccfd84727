import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { PublicConsent } from '@divan/core';
import { CONSENT_DATA_FIELDS, type ConsentDataField } from '@divan/core/consent-signing';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { formatDate } from '@/lib/format';
import { useSignConsent, type SignConsentResult } from '../api/consent-signing-api';
import { SignatureInput } from '../components/signature-input';
import { ConsentDocument } from './consent-document';
import { bodyOf, initialValues, problemsOf, refusalOf, type GeneralProblem, type Problem, type SignFormValues } from './sign-form-model';

const INPUT: Record<ConsentDataField, { type: string; autoComplete: string; inputMode?: 'email' | 'tel' | 'text'; hint?: string }> = {
  fullName: { type: 'text', autoComplete: 'name' },
  email: { type: 'email', autoComplete: 'email', inputMode: 'email' },
  phone: { type: 'tel', autoComplete: 'tel', inputMode: 'tel' },
  address: { type: 'text', autoComplete: 'street-address' },
  idNumber: { type: 'text', autoComplete: 'off', hint: 'Con la letra, por ejemplo 12345678Z o X1234567L.' },
};

const dataId = (field: string) => `sign-data-${field}`;
/** The element a problem's path points at, to focus it. */
function elementFor(path: string): HTMLElement | null {
  if (path.startsWith('data.')) return document.getElementById(dataId(path.slice(5)));
  if (path.startsWith('checkboxes.')) return document.getElementById(`sign-check-${path.slice(11)}`);
  // The typed name's input when typing, else the chosen way to sign.
  if (path === 'signature')
    return (
      document.querySelector<HTMLElement>('#sign-signature input') ??
      document.querySelector<HTMLElement>('#sign-signature [role="radio"][tabindex="0"]')
    );
  return null;
}
const focusPath = (path: string) => {
  const el = elementFor(path);
  el?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  el?.focus({ preventScroll: true });
};

/**
 * The document and what it asks of this signer: ticking its boxes, their data, their signature. Core's
 * rules check it all before sending; a refusal from the server lands at the same fields. Nothing typed
 * or drawn is lost on a refusal, nor when the document is loaded again.
 */
export function SignForm({
  consent,
  token,
  onSigned,
  onReload,
}: {
  consent: PublicConsent;
  token: string;
  onSigned: (result: SignConsentResult) => void;
  onReload: () => Promise<unknown>;
}) {
  const [values, setValues] = useState<SignFormValues>(() => initialValues(consent));
  const [problems, setProblems] = useState<Problem[]>([]);
  const [general, setGeneral] = useState<GeneralProblem | null>(null);
  const [reloading, setReloading] = useState(false);
  const { sign, pending } = useSignConsent(token);
  const summary = useRef<HTMLDivElement>(null);

  const problemAt = (path: string) => problems.find((p) => p.path === path)?.message;
  const solved = (path: string) => setProblems((list) => (list.some((p) => p.path === path) ? list.filter((p) => p.path !== path) : list));
  const setData = (field: ConsentDataField, value: string) => {
    setValues((v) => ({ ...v, data: { ...v.data, [field]: value } }));
    solved(`data.${field}`);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (pending) return;
    setGeneral(null);
    const found = problemsOf(consent, values);
    setProblems(found);
    if (found.length) {
      focusPath(found[0]!.path);
      return;
    }
    const outcome = await sign(bodyOf(consent, values));
    if (outcome.ok) return onSigned(outcome.result);
    const refusal = refusalOf(outcome.error);
    setProblems(refusal.problems);
    setGeneral(refusal.general);
    if (refusal.problems.length) focusPath(refusal.problems[0]!.path);
    else requestAnimationFrame(() => summary.current?.focus());
  };

  const reload = async () => {
    setReloading(true);
    await onReload();
    setReloading(false);
    setGeneral(null);
  };

  const asked = consent.signer.data;
  const signatureError = problemAt('signature');
  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="grid gap-8" aria-label="Firmar el documento">
      <Step n={1} title="Lee el documento" id="step-read">
        <ConsentDocument
          consent={consent}
          checks={{
            checked: values.checked,
            onToggle: (i, on) => {
              setValues((v) => ({ ...v, checked: on ? [...v.checked, i] : v.checked.filter((x) => x !== i) }));
              solved(`checkboxes.${i}`);
            },
            problemAt,
          }}
        />
      </Step>

      {asked.length ? (
        <Step n={2} title="Tus datos" id="step-data" hint="Aparecerán en el documento firmado.">
          <div className="grid gap-4 rounded-xl border bg-card p-4 shadow-xs sm:grid-cols-2 sm:p-5">
            {asked.map((field) => (
              <Field
                key={field}
                label={CONSENT_DATA_FIELDS.labels[field]}
                error={problemAt(`data.${field}`)}
                hint={INPUT[field].hint}
                className={field === 'fullName' || field === 'address' ? 'sm:col-span-2' : undefined}
              >
                <Input
                  id={dataId(field)}
                  name={field}
                  type={INPUT[field].type}
                  inputMode={INPUT[field].inputMode}
                  autoComplete={INPUT[field].autoComplete}
                  autoCapitalize={field === 'idNumber' ? 'characters' : undefined}
                  spellCheck={false}
                  value={values.data[field] ?? ''}
                  onChange={(e) => setData(field, e.target.value)}
                  aria-required
                  className="h-11"
                />
              </Field>
            ))}
          </div>
        </Step>
      ) : null}

      <Step n={asked.length ? 3 : 2} title="Tu firma" id="step-sign" hint="Con el dedo, un lápiz o el ratón; o escrita con el teclado.">
        <div id="sign-signature" className="grid gap-2 rounded-xl border bg-card p-4 shadow-xs sm:p-5">
          <SignatureInput
            value={values.signature?.png ?? null}
            onChange={() => undefined}
            onSignature={(signature) => {
              setValues((v) => ({ ...v, signature }));
              if (signature) solved('signature');
            }}
            label="Tu firma"
            invalid={!!signatureError}
            describedBy={signatureError ? 'sign-signature-message' : undefined}
          />
          {signatureError ? (
            <p id="sign-signature-message" role="alert" className="text-[0.8125rem] font-medium text-destructive">
              {signatureError}
            </p>
          ) : null}
        </div>
      </Step>

      <div className="grid gap-3">
        {general || problems.length ? (
          <div ref={summary} tabIndex={-1} className="outline-none" data-testid="sign-problems">
            <Alert variant="error">
              {general ? (
                <p className="font-medium">{general.message}</p>
              ) : (
                <p className="font-medium">
                  {problems.length === 1 ? 'Revisa lo marcado antes de firmar:' : `Revisa estas ${problems.length} cosas antes de firmar:`}
                </p>
              )}
              {problems.length ? (
                <ul className="mt-1.5 grid gap-1">
                  {problems.map((p) => (
                    <li key={p.path}>
                      <button type="button" className="text-left underline underline-offset-2" onClick={() => focusPath(p.path)}>
                        {labelOf(p.path)}
                        {p.message}
                      </button>
                    </li>
                  ))}
                </ul>
              ) : null}
              {general?.action === 'reload' ? (
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  className="mt-2.5 text-foreground"
                  loading={reloading}
                  onClick={() => void reload()}
                >
                  Cargar de nuevo el documento
                </Button>
              ) : null}
            </Alert>
          </div>
        ) : null}
        <Button type="submit" size="lg" className="h-12 w-full text-base" loading={pending}>
          {pending ? 'Firmando…' : 'Firmar'}
        </Button>
        <p className="text-center text-[0.8125rem] leading-relaxed text-muted-foreground">
          Al pulsar «Firmar» aceptas el contenido de este documento. Enlace válido hasta el {formatDate(consent.expiresAt)}.
        </p>
      </div>
    </form>
  );
}

function labelOf(path: string): string {
  if (!path.startsWith('data.')) return '';
  const field = path.slice(5) as ConsentDataField;
  return CONSENT_DATA_FIELDS.labels[field] ? `${CONSENT_DATA_FIELDS.labels[field]}: ` : '';
}

function Step({ n, title, hint, id, children }: { n: number; title: string; hint?: string; id: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid gap-3">
      <div className="grid gap-0.5">
        <h2 id={id} className="flex items-center gap-2.5 text-lg font-semibold">
          <span
            aria-hidden
            className="grid size-7 shrink-0 place-items-center rounded-full bg-primary text-[0.8125rem] font-semibold text-primary-foreground"
          >
            {n}
          </span>
          {title}
        </h2>
        {hint ? <p className="pl-[2.375rem] text-[0.8125rem] text-muted-foreground">{hint}</p> : null}
      </div>
      {children}
    </section>
  );
}
