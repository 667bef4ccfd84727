import { CodeEntry } from '../public-kit/code-step';

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
export function CodeForm(props: Props) {
  return (
    <div className="grid gap-4">
      <CodeEntry {...props} resendLabel="No me ha llegado: enviar otro" newCodeLabel="Enviarme un código nuevo" focusFirst />
    </div>
  );
}

/** The code step's state from a failure: where its message goes. */
export type CodeFailure = { codeError: string | null; needsNewCode: string | null; notice: string | null };
export const noCodeFailure: CodeFailure = { codeError: null, needsNewCode: null, notice: null };
