import { useEffect, useRef, useState, type FormEvent } from 'react';
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
  const [code, setCode] = useState('');
  const [short, setShort] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (codeError) input.current?.select();
    else input.current?.focus();
  }, [codeError]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (code.length !== 6) {
      setShort(true);
      input.current?.focus();
      return;
    }
    onSubmit(code);
  };
  const error = short ? 'El código tiene 6 cifras' : codeError;
  return (
    <div className="grid gap-4">
      <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">
        Te hemos enviado un código de 6 cifras a <strong className="font-semibold text-foreground">{email}</strong>. Si no lo ves, mira en la carpeta de correo no deseado.
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
          <div className="grid gap-1.5">
            <label htmlFor="code" className="text-sm font-medium">
              Código
            </label>
            <input
              ref={input}
              id="code"
              name="code"
              autoComplete="one-time-code"
              inputMode="numeric"
              pattern="[0-9]*"
              maxLength={6}
              className="block min-h-12 w-44 rounded-md border border-input bg-card px-3 text-center font-mono text-2xl tracking-[0.3em] shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30 aria-[invalid=true]:border-destructive"
              value={code}
              onChange={(e) => {
                setCode(e.target.value.replace(/\D/g, '').slice(0, 6));
                setShort(false);
              }}
              aria-invalid={!!error}
              aria-describedby={error ? 'code-error' : undefined}
            />
            {error ? (
              <p id="code-error" role="alert" className="text-[0.8125rem] font-medium text-destructive">
                {error}
              </p>
            ) : null}
          </div>
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
