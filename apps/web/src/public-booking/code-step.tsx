import { useEffect, useRef, useState, type FormEvent } from 'react';
import { cleanCode } from './form-checks';
import { Alert, Button, FocusHeading } from './ui';

type Props = {
  emailHint: string;
  /** The code was refused ('El código no es correcto…'): shown at the input. */
  codeError: string | null;
  /** The code can no longer work (expired, too many attempts): only a new one helps. */
  needsNewCode: string | null;
  /** Any other failure (network, too many requests). */
  notice: string | null;
  submitting: boolean;
  onConfirm: (code: string) => void;
  /** Back to the form: sending it again mails a new code. */
  onBack: () => void;
};

/** «Te hemos enviado un código de 6 cifras a a•••@…»: the six digits, then the booking is made. */
export function CodeStep({ emailHint, codeError, needsNewCode, notice, submitting, onConfirm, onBack }: Props) {
  const [code, setCode] = useState('');
  const [empty, setEmpty] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (codeError) inputRef.current?.select();
  }, [codeError]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (code.length !== 6) {
      setEmpty(true);
      inputRef.current?.focus();
      return;
    }
    onConfirm(code);
  };
  const error = empty ? 'El código tiene 6 cifras' : codeError;

  return (
    <section aria-labelledby="code-title" className="grid gap-5">
      <FocusHeading level={2} id="code-title">
        Confirma tu email
      </FocusHeading>
      <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">
        Te hemos enviado un código de 6 cifras a <strong className="font-semibold text-foreground">{emailHint}</strong>. Escríbelo aquí para confirmar la reserva. Si no lo ves, mira en la carpeta de correo no deseado.
      </p>
      {needsNewCode ? (
        <div className="grid justify-items-start gap-3">
          <Alert testId="code-notice">{needsNewCode}</Alert>
          <Button onClick={onBack}>Pedir un código nuevo</Button>
        </div>
      ) : (
        <form noValidate onSubmit={submit} className="grid gap-4">
          {notice ? <Alert testId="code-notice">{notice}</Alert> : null}
          <div className="grid gap-1.5">
            <label htmlFor="code" className="text-sm font-medium">
              Código
            </label>
            <input
              ref={inputRef}
              id="code"
              name="code"
              autoComplete="one-time-code"
              inputMode="numeric"
              pattern="[0-9]*"
              className="block min-h-12 w-44 rounded-md border border-input bg-card px-3 text-center font-mono text-2xl tracking-[0.3em] shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30 aria-[invalid=true]:border-destructive"
              value={code}
              onChange={(e) => {
                setCode(cleanCode(e.target.value));
                setEmpty(false);
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
              Confirmar reserva
            </Button>
            <Button variant="ghost" onClick={onBack}>
              No me ha llegado: volver a enviarlo
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
