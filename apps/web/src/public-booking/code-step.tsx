import type { FormEvent } from 'react';
import { useCodeField } from '../public-kit/code-field';
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
  const { field, submitted } = useCodeField(codeError);
  const submit = (e: FormEvent) => {
    const code = submitted(e);
    if (code) onConfirm(code);
  };

  return (
    <section aria-labelledby="code-title" className="grid gap-5">
      <FocusHeading level={2} id="code-title">
        Confirma tu email
      </FocusHeading>
      <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">
        Te hemos enviado un código de 6 cifras a <strong className="font-semibold text-foreground">{emailHint}</strong>. Escríbelo aquí para
        confirmar la reserva. Si no lo ves, mira en la carpeta de correo no deseado.
      </p>
      {needsNewCode ? (
        <div className="grid justify-items-start gap-3">
          <Alert testId="code-notice">{needsNewCode}</Alert>
          <Button onClick={onBack}>Pedir un código nuevo</Button>
        </div>
      ) : (
        <form noValidate onSubmit={submit} className="grid gap-4">
          {notice ? <Alert testId="code-notice">{notice}</Alert> : null}
          {field}
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
