import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/ui/states';
import { messageOf } from '@/lib/error-message';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { secondFactorApi, secondFactorKey, useDisableTotp, useSecondFactor } from '../api/second-factor-api';
import { RecoveryCodesList } from './recovery-codes';
import { TotpEnrolDialog } from './totp-enrol-dialog';

/** Ajustes › Seguridad › «Verificación en dos pasos»: the authenticator app and its recovery codes (issue 32). */
export function SecondFactorCard() {
  const { data, isPending, error, refetch } = useSecondFactor();
  const qc = useQueryClient();
  const disable = useDisableTotp();
  const [enrolling, setEnrolling] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [fresh, setFresh] = useState<string[] | null>(null);
  const [regenerating, setRegenerating] = useState(false);

  if (error) return <LoadError error={error} onRetry={() => void refetch()} what="tu verificación en dos pasos" />;
  if (isPending) return <Spinner label="Cargando tu verificación en dos pasos" />;

  const regenerate = async () => {
    setRegenerating(true);
    try {
      setFresh((await secondFactorApi.regenerateRecoveryCodes()).recoveryCodes);
      void qc.invalidateQueries({ queryKey: secondFactorKey });
    } catch (e) {
      toast.error(messageOf(e));
    } finally {
      setRegenerating(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Verificación en dos pasos</CardTitle>
        <CardDescription>
          Al entrar, además de tu contraseña, te pediremos un código de tu app de autenticación en lugar del código por email.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {data.totp ? (
          <>
            <div className="flex flex-wrap items-center gap-3">
              <Badge>Activada</Badge>
              <span className="text-sm text-muted-foreground">
                App de autenticación desde el {data.totpEnabledAt ? formatDate(data.totpEnabledAt) : '—'} · te quedan{' '}
                {data.recoveryCodesLeft} códigos de recuperación
              </span>
            </div>
            <div className="flex flex-wrap gap-2">
              <Button type="button" variant="outline" onClick={() => void regenerate()} loading={regenerating}>
                Generar nuevos códigos de recuperación
              </Button>
              <Button type="button" variant="ghost" onClick={() => setRemoving(true)}>
                Quitar la app de autenticación
              </Button>
            </div>
          </>
        ) : (
          <div>
            <Button type="button" onClick={() => setEnrolling(true)}>
              Configurar app de autenticación
            </Button>
          </div>
        )}
      </CardContent>
      <TotpEnrolDialog open={enrolling} onOpenChange={setEnrolling} />
      <Modal open={!!fresh} onOpenChange={(open) => !open && setFresh(null)} title="Nuevos códigos de recuperación" modalLock>
        {fresh ? (
          <div className="grid gap-5">
            <p className="text-sm text-muted-foreground">Los códigos anteriores ya no sirven.</p>
            <RecoveryCodesList codes={fresh} />
            <div>
              <Button type="button" onClick={() => setFresh(null)}>
                He guardado mis códigos
              </Button>
            </div>
          </div>
        ) : null}
      </Modal>
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title="¿Quitar la app de autenticación?"
        description="Volverás a entrar con un código por email. Tus códigos de recuperación dejarán de servir."
        confirmLabel="Quitar"
        destructive
        onConfirm={async () => {
          try {
            await disable.mutateAsync();
            toast.success('App de autenticación quitada');
          } catch (e) {
            toast.error(messageOf(e));
          }
        }}
      />
    </Card>
  );
}
