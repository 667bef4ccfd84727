import { useState } from 'react';
import { useParams } from 'react-router';
import type { PublicConsent } from '@divan/core';
import { CONSENT_SIGNER_ROLE_LABELS } from '@divan/core/consent-signing';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { formatDate, formatTime } from '@/lib/format';
import { usePageTitle } from '@/lib/use-page-title';
import { useConsentToSign, type ConsentToSign, type SignConsentResult } from '../api/consent-signing-api';
import { ConsentDocument } from './consent-document';
import { SignForm } from './sign-form';
import { ROLE_YOU } from './sign-form-model';
import { PageFrame, Signers, StatusMessage, h1Class, stillToSign } from './sign-parts';
import { companionReturn } from './companion-return';

const COPY_LATER = 'Cuando hayan firmado todas las personas, te enviaremos por email una copia del documento firmado.';

/**
 * `/consents/sign/:token`: the page of a mailed signing link, no account (spec §2). One signer reads
 * the document, ticks its boxes, gives the data asked of them and signs, drawn or typed. A minor's
 * guardians each have their own link, in turn. Phone first: most open it from the mail.
 */
export function ConsentSignRoute() {
  const { token = '' } = useParams();
  const { consent, failure, reload } = useConsentToSign(token);
  const [signed, setSigned] = useState<SignConsentResult | null>(null);
  usePageTitle(consent?.documentTitle ?? 'Firmar documento');

  let body;
  if (consent && signed) body = <SignedNow consent={consent} result={signed} back={companionReturn(window.location.search)} />;
  else if (failure && !consent) body = <LinkProblem failure={failure} retry={reload} />;
  else if (!consent) body = <Spinner label="Cargando el documento" className="justify-center py-16" />;
  else if (consent.signer.signedAt) body = <AlreadySigned consent={consent} signedAt={consent.signer.signedAt} />;
  else if (consent.waitingFor.length) body = <NotYourTurn consent={consent} />;
  else
    body = (
      <>
        <div className="grid gap-2">
          <p className="text-[0.9375rem] text-muted-foreground">
            {consent.workspaceName || 'Tu terapeuta'} te pide tu firma {ROLE_YOU[consent.signer.role]}
          </p>
          <h1 className={h1Class}>{consent.documentTitle}</h1>
        </div>
        {consent.patientSignsAsMinor ? (
          <Alert variant="info" data-testid="minor-note">
            <strong className="font-semibold">Firmas tú, aunque seas menor de edad.</strong> A partir de los 16 años, el consentimiento para
            tu atención sanitaria lo das tú mismo/a, no tus padres ni tutores (Ley 41/2002, de autonomía del paciente, art. 9.4).
          </Alert>
        ) : null}
        <Signers consent={consent} />
        <SignForm
          consent={consent}
          token={token}
          onReload={reload}
          onSigned={(result) => {
            setSigned(result);
            window.scrollTo({ top: 0 });
          }}
        />
      </>
    );

  return (
    <PageFrame workspaceName={consent?.workspaceName || null} evidence={!!consent}>
      {body}
    </PageFrame>
  );
}

function SignedNow({ consent, result, back }: { consent: PublicConsent; result: SignConsentResult; back: string | null }) {
  return (
    <>
      <StatusMessage tone="done" title={result.completed ? 'Documento firmado' : 'Tu firma está registrada'}>
        <p>
          Has firmado «{consent.documentTitle}» el {formatDate(result.signedAt)} a las {formatTime(result.signedAt)}.
        </p>
        {result.completed ? (
          <p className="font-medium text-foreground">Te hemos enviado por email una copia del documento firmado.</p>
        ) : (
          <p className="font-medium text-foreground">
            {stillToSign(consent) ?? 'Faltan otras firmas.'} {COPY_LATER}
          </p>
        )}
        {back ? (
          <p>
            <a href={back} className="font-medium text-primary underline underline-offset-4">
              Volver a tus documentos en Diván
            </a>
          </p>
        ) : (
          <p>Ya puedes cerrar esta página.</p>
        )}
      </StatusMessage>
      {consent.others.length ? <Signers consent={consent} signedNow /> : null}
    </>
  );
}

/** A second guardian's link opened before the first has signed: the server refuses the signature, the page says why and shows the document. */
function NotYourTurn({ consent }: { consent: PublicConsent }) {
  const first = consent.waitingFor.map((w) => `${w.name} (${CONSENT_SIGNER_ROLE_LABELS[w.role].toLowerCase()})`).join(' y ');
  return (
    <>
      <StatusMessage tone="waiting" title="Aún no es tu turno para firmar">
        <p data-testid="not-your-turn">
          Antes tiene que firmar {first}. Te avisaremos por email cuando te toque, y este mismo enlace te servirá para firmar.
        </p>
        <p>Mientras tanto, puedes leer el documento.</p>
      </StatusMessage>
      <Signers consent={consent} />
      <ConsentDocument consent={consent} />
    </>
  );
}

function AlreadySigned({ consent, signedAt }: { consent: PublicConsent; signedAt: string }) {
  const pending = consent.state === 'signed' ? null : stillToSign(consent);
  return (
    <>
      <StatusMessage tone="done" title={`Ya firmaste este documento el ${formatDate(signedAt)} a las ${formatTime(signedAt)}`}>
        <p>
          «{consent.documentTitle}», de {consent.workspaceName || 'tu terapeuta'}. Un documento solo se firma una vez: no tienes que hacer
          nada más.
        </p>
        <p className="font-medium text-foreground">
          {pending
            ? `${pending} ${COPY_LATER}`
            : 'Han firmado todas las personas: te hemos enviado por email una copia del documento firmado.'}
        </p>
      </StatusMessage>
      {consent.others.length ? <Signers consent={consent} /> : null}
      <details className="group rounded-xl border bg-card shadow-xs">
        <summary className="cursor-pointer list-none rounded-xl px-4 py-3 text-sm font-medium hover:bg-muted/50 [&::-webkit-details-marker]:hidden">
          <span aria-hidden className="mr-2 inline-block transition-transform group-open:rotate-90">
            ›
          </span>
          Volver a leer el documento
        </summary>
        <div className="border-t p-2 sm:p-3">
          <ConsentDocument consent={consent} />
        </div>
      </details>
    </>
  );
}

const RETRY_CODES = ['network_error', 'too_many_requests', 'unexpected_error', 'service_unavailable', 'internal_server_error'];
const TITLES: Record<string, string> = {
  consent_not_found: 'No se puede abrir este enlace',
  invalid_argument: 'Este enlace no está completo',
  network_error: 'Sin conexión',
  too_many_requests: 'Demasiados intentos',
};

function LinkProblem({ failure, retry }: { failure: NonNullable<ConsentToSign['failure']>; retry: ConsentToSign['reload'] }) {
  const [pending, setPending] = useState(false);
  const text =
    failure.code === 'invalid_argument'
      ? 'Comprueba que has abierto el enlace completo del email o pide uno nuevo a tu terapeuta.'
      : failure.message;
  return (
    <StatusMessage
      tone="problem"
      title={TITLES[failure.code] ?? 'No se puede abrir este enlace'}
      actions={
        RETRY_CODES.includes(failure.code) ? (
          <Button
            loading={pending}
            onClick={() => {
              setPending(true);
              void retry().finally(() => setPending(false));
            }}
          >
            Reintentar
          </Button>
        ) : null
      }
    >
      <p data-testid="link-problem">{text}</p>
    </StatusMessage>
  );
}

export { ConsentSignRoute as Component };
