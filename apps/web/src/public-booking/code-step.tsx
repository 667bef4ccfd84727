import { CodeEntry } from '../public-kit/code-step';
import { FocusHeading } from './ui';

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
  return (
    <section aria-labelledby="code-title" className="grid gap-5">
      <FocusHeading level={2} id="code-title">
        Confirma tu email
      </FocusHeading>
      <CodeEntry
        email={emailHint}
        purpose="Escríbelo aquí para confirmar la reserva."
        submitLabel="Confirmar reserva"
        resendLabel="No me ha llegado: volver a enviarlo"
        newCodeLabel="Pedir un código nuevo"
        submitting={submitting}
        codeError={codeError}
        needsNewCode={needsNewCode}
        notice={notice}
        onSubmit={onConfirm}
        onNewCode={onBack}
      />
    </section>
  );
}
