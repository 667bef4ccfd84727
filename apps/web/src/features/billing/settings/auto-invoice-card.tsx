import { useId } from 'react';
import { Switch } from '@/components/ui/switch';
import { errorMessage } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { messageOf } from '@/lib/error-message';
import { formatDate, formatTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useBillingScope } from '../components/use-billing-scope';
import { useInvoiceSettings, useSaveInvoiceSettings } from './invoice-settings-api';

/**
 * «Facturas automáticas al completar una sesión» (Advance and Team): the member's own switch in the
 * current workspace. On Basic it is disabled and says why, in the plan's words.
 */
export function AutoInvoiceCard() {
  const scope = useBillingScope();
  const enabled = scope.ready && scope.canCreate;
  const settings = useInvoiceSettings(scope.wid, enabled);
  const save = useSaveInvoiceSettings(scope.wid);
  const id = useId();
  if (!enabled) return null;

  const data = settings.data;
  const allowed = data?.autoInvoiceAllowed ?? false;
  const toggle = (on: boolean) =>
    save.mutate(
      { autoInvoice: on },
      {
        onSuccess: (s) => toast.success(s.autoInvoice ? 'Facturas automáticas activadas' : 'Facturas automáticas desactivadas'),
        onError: (error) => toast.error(messageOf(error)),
      },
    );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Facturas automáticas</CardTitle>
        <CardDescription>
          En «{scope.workspace.name}»: al marcar una sesión como realizada, se emite su factura al paciente, con sus datos de facturación.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {settings.isError ? <Alert variant="error">{messageOf(settings.error)}</Alert> : null}
        {!data && !settings.isError ? <Spinner /> : null}
        {data ? (
          <>
            <div className="flex items-start justify-between gap-4">
              <div className="grid gap-1">
                <label htmlFor={id} className="text-sm font-medium">
                  Facturas automáticas al completar una sesión
                </label>
                <p id={`${id}-hint`} className="text-[0.8125rem] text-muted-foreground">
                  Una factura por sesión, emitida con tu serie y tus datos fiscales. Si faltan datos, no se emite y lo verás aquí.
                </p>
              </div>
              <Switch
                id={id}
                checked={data.autoInvoice && allowed}
                disabled={!allowed || save.isPending}
                onCheckedChange={toggle}
                aria-describedby={`${id}-hint`}
              />
            </div>
            {!allowed ? (
              <Alert variant="info">
                {errorMessage('invoice_auto_not_allowed')}. Con el plan Premium o Team, cada sesión realizada se factura sola.
              </Alert>
            ) : null}
            {data.skipped.length ? (
              <div className="grid gap-2">
                <h3 className="text-sm font-medium">Sesiones que no se pudieron facturar automáticamente</h3>
                <ul className="grid gap-1.5 text-[0.8125rem]">
                  {data.skipped.map((s) => (
                    <li key={s.sessionId} className="rounded-md border px-3 py-2">
                      <span className="text-muted-foreground">
                        {formatDate(s.at)} {formatTime(s.at)}:{' '}
                      </span>
                      {s.reason}
                    </li>
                  ))}
                </ul>
                <p className="text-[0.8125rem] text-muted-foreground">
                  Puedes facturarlas a mano desde Facturación, una vez completados los datos.
                </p>
              </div>
            ) : null}
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}
