import type { FormEvent } from 'react';
import { useCodeField } from './code-field';
import { Alert, Button } from './ui';

type Props = {
  /** Where the code went, masked or not. */
  email: string;
  /** What the code is for, said after where it went («Escríbelo aquí para confirmar la reserva.»). */
  purpose?: string;
  submitLabel: string;
  /** The way to a new code while this one may still work («No me ha llegado: …»). */
  resendLabel: string;
  /** The way to a new code once this one can no longer work. */
  newCodeLabel: string;
  submitting: boolean;
  sendingNew?: boolean;
  /** The code was refused ('El código no es correcto…'): shown at the input. */
  codeError: string | null;
  /** The code can no longer work (expired, too many attempts): only a new one helps. */
  needsNewCode: string | null;
  /** Any other failure (network, too many requests). */
  notice: string | null;
  onSubmit: (code: string) => void;
  onNewCode: () => void;
  /** The field takes the focus when it appears (the booking pages give it to the step's heading instead). */
  focusFirst?: boolean;
};

/**
 * «Te hemos enviado un código de 6 cifras a …»: the six digits and a way to ask another, as the booking
 * pages and the companion ask them. Each places it under its own heading and words its buttons.
 */
export function CodeEntry({
  email,
  purpose,
  submitLabel,
  resendLabel,
  newCodeLabel,
  submitting,
  sendingNew,
  codeError,
  needsNewCode,
  notice,
  onSubmit,
  onNewCode,
  focusFirst = false,
}: Props) {
  const { field, submitted } = useCodeField(codeError, { focusFirst });
  const submit = (e: FormEvent) => {
    const code = submitted(e);
    if (code) onSubmit(code);
  };
  return (
    <>
      <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">
        Te hemos enviado un código de 6 cifras a <strong className="font-semibold text-foreground">{email}</strong>.{' '}
        {purpose ? `${purpose} ` : ''}Si no lo ves, mira en la carpeta de correo no deseado.
      </p>
      {needsNewCode ? (
        <div className="grid justify-items-start gap-3">
          <Alert testId="code-notice">{needsNewCode}</Alert>
          <Button onClick={onNewCode} loading={sendingNew}>
            {newCodeLabel}
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
              {resendLabel}
            </Button>
          </div>
        </form>
      )}
    </>
  );
}
