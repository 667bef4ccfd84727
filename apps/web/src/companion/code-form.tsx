import type { FormEvent } from 'react';
import { useCodeField } from '../public-kit/code-field';
import { Alert, Button } from './ui';

type Props = {
  /** Where the code went, masked or not. */
  email: string;
  submitLabel: string;
  submitting: boolean;
  /** The code was refused: shown at the input. */
  codeError: string | null;
  /** The code can no longer work (expired, too many attempts): only a new one helps. */
  needsNewCode: string | null;
  /** Any other failure (network, too many requests). */
  notice: string | null;
  onSubmit: (code: string) => void;
  onNewCode: () => void;
  sendingNew?: boolean;
};

/** «Te hemos enviado un código de 6 cifras a …»: the six digits, and a way to ask another. */
export function CodeForm({ email, submitLabel, submitting, codeError, needsNewCode, notice, onSubmit, onNewCode, sendingNew }: Props) {
  const { field, submitted } = useCodeField(codeError, { focusFirst: true });
  const submit = (e: FormEvent) => {
    const code = submitted(e);
    if (code) onSubmit(code);
  };
  return (
    <div className="grid gap-4">
      <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">
        Te hemos enviado un código de 6 cifras a <strong className="font-semibold text-foreground">{email}</strong>. Si no lo ves, mira en
        la carpeta de correo no deseado.
      </p>
      {needsNewCode ? (
        <div className="grid justify-items-start gap-3">
          <Alert testId="code-notice">{needsNewCode}</Alert>
          <Button onClick={onNewCode} loading={sendingNew}>
            Enviarme un código nuevo
          </Button>
        </div>
      ) : (
        <form noValidate onSubmit={submit} className="grid gap-4">
          {notice ? <Alert testId="code-notice">{notice}</Alert> : null}
          {field}
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" loading={submitting}>
              {submitLabel}
            </Button>
            <Button variant="ghost" onClick={onNewCode} loading={sendingNew}>
              No me ha llegado: enviar otro
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}

/** The code step's state from a failure: where its message goes. */
export type CodeFailure = { codeError: string | null; needsNewCode: string | null; notice: string | null };
export const noCodeFailure: CodeFailure = { codeError: null, needsNewCode: null, notice: null };
