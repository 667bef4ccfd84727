import { useState } from 'react';
import type { PatientFile } from '@divan/core';
import { authApi, connectApi, type Challenge } from './api';
import { codeFailure } from './code-failure';
import { CodeForm, noCodeFailure, type CodeFailure } from './code-form';
import { asFailure, messageOf } from './errors';
import { PageFrame } from './frame';
import { navigate } from './nav';
import { hrefOf } from './router';
import { useSession } from './session';
import { Alert, Button, ErrorState, FocusHeading, Initial, Link, ListSkeleton } from './ui';
import { useLoad } from '../public-kit/use-load';

/**
 * A connect link (`/p/connect/:token`, mailed by the therapist): who invites, to which email (masked),
 * then either «Conectar» (signed in already) or «Enviarme un código» to that email and the code, which
 * connects the file and signs in at once.
 */
export function ConnectPage({ token }: { token: string }) {
  const session = useSession();
  const invitation = useLoad(`invitation:${token}`, (signal) => connectApi.invitation(token, signal));
  const [challenge, setChallenge] = useState<Challenge | null>(null);
  const [busy, setBusy] = useState<'code' | 'connect' | null>(null);
  const [failure, setFailure] = useState<CodeFailure>(noCodeFailure);
  const [error, setError] = useState<{ code: string; text: string } | null>(null);

  const connected = (file: PatientFile) => navigate(hrefOf(file.patientFileId), { replace: true });
  const mailCode = async () => {
    setBusy('code');
    setError(null);
    setFailure(noCodeFailure);
    try {
      setChallenge(await connectApi.mailCode(token));
    } catch (e) {
      const f = asFailure(e);
      setError({ code: f.code, text: messageOf(f) });
    } finally {
      setBusy(null);
    }
  };
  const withCode = async (code: string) => {
    if (!challenge) return;
    setBusy('connect');
    setFailure(noCodeFailure);
    try {
      connected(await connectApi.withCode(token, challenge.challenge, code));
    } catch (e) {
      const f = asFailure(e);
      if (f.code.startsWith('patient_connect')) setError({ code: f.code, text: messageOf(f) });
      else setFailure(codeFailure(f));
      setBusy(null);
    }
  };
  const accept = async () => {
    setBusy('connect');
    setError(null);
    try {
      connected(await connectApi.accept(token));
    } catch (e) {
      const f = asFailure(e);
      setError({ code: f.code, text: messageOf(f) });
      setBusy(null);
    }
  };

  const inv = invitation.data;
  return (
    <PageFrame title="Conectar con tu terapeuta">
      {invitation.failure ? (
        <ErrorState
          title={
            invitation.failure.status === 404 || invitation.failure.code === 'invalid_argument'
              ? 'Este enlace ya no sirve'
              : 'No se ha podido cargar'
          }
          message={
            invitation.failure.code === 'invalid_argument'
              ? messageOf({ code: 'patient_connect_invitation_not_found', message: '' })
              : messageOf(invitation.failure)
          }
          retry={invitation.failure.status === 404 || invitation.failure.code === 'invalid_argument' ? undefined : invitation.retry}
        />
      ) : !inv ? (
        <ListSkeleton rows={1} />
      ) : (
        <section
          aria-labelledby="connect-title"
          className="mx-auto grid w-full max-w-md gap-5 rounded-2xl border bg-card p-5 shadow-sm sm:mt-6 sm:p-8"
        >
          <div className="flex items-center gap-3">
            <Initial name={inv.workspaceName} className="size-12 text-xl" />
            <div className="min-w-0">
              <p className="truncate font-medium" data-testid="invitation-workspace">
                {inv.workspaceName}
              </p>
              {inv.therapistName ? <p className="truncate text-sm text-muted-foreground">{inv.therapistName}</p> : null}
            </div>
          </div>
          <div className="grid gap-2">
            <FocusHeading id="connect-title" key={challenge ? 'code' : 'intro'}>
              {challenge ? 'Escribe el código' : 'Conecta con tu terapeuta'}
            </FocusHeading>
            {!challenge ? (
              <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">
                {inv.therapistName ?? inv.workspaceName} te invita a Diván: verás tus sesiones, documentos y facturas, y podréis escribiros
                por chat. La invitación es para{' '}
                <strong className="font-semibold text-foreground" data-testid="invitation-email">
                  {inv.maskedEmail}
                </strong>
                .
              </p>
            ) : null}
          </div>
          {error ? (
            <div className="grid justify-items-start gap-3">
              <Alert testId="connect-error">{error.text}</Alert>
              {error.code === 'patient_connect_email_mismatch' ? (
                <Button variant="outline" onClick={() => void authApi.logout().then(() => setError(null))}>
                  Salir y usar otro email
                </Button>
              ) : null}
              {error.code === 'patient_connect_invitation_not_found' && session ? <Link href={hrefOf()}>Ir a mis fichas</Link> : null}
            </div>
          ) : null}
          {error?.code === 'patient_connect_invitation_not_found' ? null : session ? (
            <div className="grid gap-3">
              <p className="text-[0.9375rem] text-muted-foreground">
                Has entrado como <strong className="font-semibold text-foreground">{session.profile.email}</strong>.
              </p>
              <Button onClick={() => void accept()} loading={busy === 'connect'} className="w-full sm:w-auto sm:justify-self-start">
                Conectar
              </Button>
            </div>
          ) : challenge ? (
            <CodeForm
              email={inv.maskedEmail}
              submitLabel="Conectar"
              submitting={busy === 'connect'}
              sendingNew={busy === 'code'}
              {...failure}
              onSubmit={(code) => void withCode(code)}
              onNewCode={() => void mailCode()}
            />
          ) : (
            <div className="grid gap-3">
              <Button onClick={() => void mailCode()} loading={busy === 'code'} className="w-full sm:w-auto sm:justify-self-start">
                Enviarme un código
              </Button>
              <p className="text-sm text-muted-foreground">
                Lo enviaremos a {inv.maskedEmail}. Si aún no tienes cuenta en Diván, se crea al conectar.
              </p>
            </div>
          )}
        </section>
      )}
    </PageFrame>
  );
}
