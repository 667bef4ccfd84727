import { useState } from 'react';
import type { IdentityResponse, SocialProvider } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/ui/states';
import { messageOf } from '@/lib/error-message';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { authorizeIdentity, useIdentities, useUnlinkIdentity } from '../api/identities-api';
import { rememberSocialIntent } from '../utils/social-intent';
import { PROVIDER_LABEL, ProviderLogo } from './provider-logo';

/**
 * Ajustes › Seguridad › «Accesos vinculados»: the Google and Apple accounts that open this one, linking another
 * (a trip to the provider and back to /auth/{provider}/callback) and unlinking — never the only way in.
 */
export function LinkedAccounts() {
  const { data, isPending, error, refetch } = useIdentities();
  const unlink = useUnlinkIdentity();
  const [starting, setStarting] = useState<SocialProvider | null>(null);
  const [confirming, setConfirming] = useState<IdentityResponse | null>(null);

  if (error) return <LoadError error={error} onRetry={() => void refetch()} what="tus accesos vinculados" />;
  if (isPending) return <Spinner label="Cargando tus accesos vinculados" />;
  // A server without Google or Apple configured, and nothing linked from before: nothing to show.
  if (data.identities.length === 0 && data.providers.length === 0) return null;

  const linked = new Set(data.identities.map((i) => i.provider));
  const toLink = data.providers.filter((p) => !linked.has(p));
  // Without a password, the last identity is the only way in: it stays.
  const onlyWayIn = !data.hasPassword && data.identities.length === 1;

  const start = async (provider: SocialProvider) => {
    setStarting(provider);
    try {
      const { url } = await authorizeIdentity(provider);
      rememberSocialIntent({ kind: 'link', provider });
      window.location.assign(url);
    } catch (e) {
      setStarting(null);
      toast.error(messageOf(e));
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Accesos vinculados</CardTitle>
        <CardDescription>Entra en Diván con tu cuenta de Google o de Apple, además de con tu email y contraseña.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {data.identities.length > 0 ? (
          <ul className="divide-y rounded-lg border" aria-label="Cuentas vinculadas">
            {data.identities.map((identity) => {
              const label = PROVIDER_LABEL[identity.provider];
              return (
                <li
                  key={identity.id}
                  className="grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-4 gap-y-3 p-4 sm:grid-cols-[auto_minmax(0,1fr)_auto]"
                >
                  <span className="grid size-10 shrink-0 place-items-center rounded-full border bg-card">
                    <ProviderLogo provider={identity.provider} />
                  </span>
                  <div className="grid min-w-0 gap-0.5">
                    <p className="font-medium">{label}</p>
                    {identity.email ? <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]">{identity.email}</p> : null}
                    <p className="text-[0.8125rem] text-muted-foreground">
                      Vinculada el {formatDate(identity.createdAt)}
                      {identity.lastUsedAt ? ` · último acceso el ${formatDate(identity.lastUsedAt)}` : ''}
                    </p>
                  </div>
                  {onlyWayIn ? null : (
                    <Button
                      type="button"
                      variant="outline"
                      size="sm"
                      className="col-start-2 justify-self-start sm:col-start-auto sm:justify-self-end"
                      onClick={() => setConfirming(identity)}
                      aria-label={`Desvincular ${label}`}
                    >
                      Desvincular
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">Aún no has vinculado ninguna cuenta.</p>
        )}
        {onlyWayIn ? (
          <Alert>
            {PROVIDER_LABEL[data.identities[0]!.provider]} es ahora tu única forma de entrar en Diván: para desvincularla, vincula antes
            otra cuenta o crea una contraseña.
          </Alert>
        ) : null}
        {toLink.length > 0 ? (
          <div className="flex flex-wrap gap-2">
            {toLink.map((provider) => (
              <Button
                key={provider}
                type="button"
                variant="outline"
                loading={starting === provider}
                disabled={starting !== null && starting !== provider}
                onClick={() => void start(provider)}
              >
                {starting === provider ? null : <ProviderLogo provider={provider} />}
                Vincular {PROVIDER_LABEL[provider]}
              </Button>
            ))}
          </div>
        ) : null}
      </CardContent>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) setConfirming(null);
        }}
        title={confirming ? `¿Desvincular ${PROVIDER_LABEL[confirming.provider]}?` : ''}
        description={
          confirming
            ? `Ya no podrás entrar en Diván con tu cuenta de ${PROVIDER_LABEL[confirming.provider]}${confirming.email ? ` (${confirming.email})` : ''}. Podrás vincularla de nuevo cuando quieras.`
            : ''
        }
        confirmLabel="Desvincular"
        onConfirm={async () => {
          if (!confirming) return;
          await unlink.mutateAsync(confirming.id);
          toast.success(`${PROVIDER_LABEL[confirming.provider]} desvinculado`);
        }}
      />
    </Card>
  );
}
