import { useState, type FormEvent } from 'react';
import { authApi, type Challenge } from './api';
import { codeFailure } from './code-failure';
import { CodeForm, noCodeFailure, type CodeFailure } from './code-form';
import { asFailure, messageOf } from './errors';
import { Alert, Button, FieldAlert, FocusHeading, invalidField } from './ui';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** «Entrar»: the email, then the 6-digit code mailed to it. No password: the patients' realm has none. */
export function SignIn() {
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<Challenge | null>(null);
  const [sending, setSending] = useState(false);
  const [checking, setChecking] = useState(false);
  const [failure, setFailure] = useState<CodeFailure>(noCodeFailure);

  const ask = async () => {
    setSending(true);
    setFailure(noCodeFailure);
    try {
      setChallenge(await authApi.challenge(email.trim()));
    } catch (error) {
      const f = asFailure(error);
      if (challenge) setFailure({ ...noCodeFailure, notice: messageOf(f) });
      else setEmailError(messageOf(f));
    } finally {
      setSending(false);
    }
  };
  const submitEmail = (e: FormEvent) => {
    e.preventDefault();
    if (!EMAIL.test(email.trim())) return setEmailError(email.trim() ? 'Escribe un email válido' : 'Escribe tu email');
    setEmailError(null);
    void ask();
  };
  const confirm = async (code: string) => {
    if (!challenge) return;
    setChecking(true);
    setFailure(noCodeFailure);
    try {
      await authApi.login(challenge.challenge, code);
    } catch (error) {
      setFailure(codeFailure(asFailure(error)));
      setChecking(false);
    }
  };

  return (
    <section
      aria-labelledby="sign-in-title"
      className="mx-auto grid w-full max-w-md gap-5 rounded-2xl border bg-card p-5 shadow-sm sm:mt-6 sm:p-8"
    >
      <div className="grid gap-2">
        <FocusHeading id="sign-in-title" key={challenge ? 'code' : 'email'}>
          {challenge ? 'Escribe el código' : 'Entrar'}
        </FocusHeading>
        {!challenge ? (
          <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">
            Tu espacio con tu terapeuta: tus sesiones, documentos, facturas y mensajes. Escribe el email con el que te invitó y te
            enviaremos un código para entrar.
          </p>
        ) : null}
      </div>
      {challenge ? (
        <>
          <CodeForm
            email={email.trim()}
            submitLabel="Entrar"
            submitting={checking}
            sendingNew={sending}
            {...failure}
            onSubmit={(code) => void confirm(code)}
            onNewCode={() => void ask()}
          />
          <Button variant="ghost" className="justify-self-start" onClick={() => (setChallenge(null), setFailure(noCodeFailure))}>
            Usar otro email
          </Button>
        </>
      ) : (
        <form noValidate onSubmit={submitEmail} className="grid gap-4">
          <div className="grid gap-1.5">
            <label htmlFor="email" className="text-sm font-medium">
              Email
            </label>
            <input
              id="email"
              name="email"
              type="email"
              autoComplete="email"
              inputMode="email"
              className="block min-h-12 w-full rounded-md border border-input bg-card px-3 text-base shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30 aria-[invalid=true]:border-destructive"
              value={email}
              onChange={(e) => (setEmail(e.target.value), setEmailError(null))}
              {...invalidField('email-error', emailError)}
            />
            <FieldAlert id="email-error" error={emailError} />
          </div>
          <Button type="submit" loading={sending} className="w-full sm:w-auto sm:justify-self-start">
            Enviarme un código
          </Button>
          <Alert tone="info" className="text-sm">
            ¿Aún no tienes cuenta? Se crea cuando aceptas la invitación que te envía tu terapeuta por email.
          </Alert>
        </form>
      )}
    </section>
  );
}
