import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { NoAccess } from '@/components/ui/no-access';
import { PageSpinner } from '@/components/ui/spinner';
import { usePageTitle } from '@/lib/use-page-title';
import { useConsentsScope } from '../components/use-consents-scope';
import { SendConsentDialog } from '../sent/send-consent-dialog';
import { SentConsentsList } from '../sent/sent-consents-list';
import { TemplatesList } from './consent-templates-list';

export function ConsentsRoute() {
  usePageTitle('Consentimientos');
  const scope = useConsentsScope();
  if (!scope.ready) return <PageSpinner />;
  if (!scope.canRead) {
    return (
      <div className="mx-auto grid w-full max-w-3xl gap-6">
        <h1 className="font-display text-3xl font-semibold tracking-tight">Consentimientos</h1>
        <NoAccess title="No puedes ver las plantillas de consentimiento de este espacio" />
      </div>
    );
  }
  return <ConsentsPage key={scope.wid} />;
}

/** `/consents`: the templates, and the consents sent with them (`?vista=enviados`). */
function ConsentsPage() {
  const { wid, canReadSent, canSend, canRevoke } = useConsentsScope();
  const [params, setParams] = useSearchParams();
  const [sending, setSending] = useState(false);
  // The command palette's «Enviar consentimiento» arrives with ?enviar=1: open the dialog once, then drop it from the URL.
  useEffect(() => {
    if (params.get('enviar') !== '1') return;
    if (canSend) setSending(true);
    setParams({ vista: 'enviados' }, { replace: true });
  }, [params, canSend, setParams]);
  const sentView = canReadSent && params.get('vista') === 'enviados';
  const tab = (active: boolean) =>
    `-mb-px border-b-2 px-1 pb-2.5 text-sm font-medium transition-colors ${active ? 'border-primary text-foreground' : 'border-transparent text-muted-foreground hover:text-foreground'}`;
  return (
    <div className="mx-auto grid w-full max-w-5xl grid-cols-[minmax(0,1fr)] gap-6">
      <header className="grid gap-1">
        <h1 className="font-display text-3xl font-semibold tracking-tight">Consentimientos</h1>
        <p className="text-sm text-muted-foreground">
          Las plantillas que tus pacientes firman (informado, protección de datos, menores…) y los consentimientos que has enviado.
        </p>
      </header>
      {canReadSent ? (
        <nav aria-label="Consentimientos" className="flex gap-6 border-b">
          <Link to="/consents" className={tab(!sentView)} aria-current={sentView ? undefined : 'page'}>
            Plantillas
          </Link>
          <Link to="/consents?vista=enviados" className={tab(sentView)} aria-current={sentView ? 'page' : undefined}>
            Enviados
          </Link>
        </nav>
      ) : null}
      {sentView ? (
        <>
          <SentConsentsList wid={wid} canSend={canSend} canRevoke={canRevoke} onSend={() => setSending(true)} />
          {canSend ? <SendConsentDialog wid={wid} open={sending} onOpenChange={setSending} /> : null}
        </>
      ) : (
        <TemplatesList />
      )}
    </div>
  );
}

export { ConsentsRoute as Component };
