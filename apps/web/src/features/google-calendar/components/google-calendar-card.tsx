import { useState, type ReactNode } from 'react';
import { CalendarCheck2, RefreshCw } from 'lucide-react';
import {
  GOOGLE_BUSY_CALENDARS_MAX,
  GOOGLE_TITLE_FORMAT_LABELS,
  GOOGLE_TITLE_FORMATS,
  type GoogleCalendarStatus,
  type GoogleTitleFormat,
} from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { messageOf } from '@/lib/error-message';
import { formatDate, formatTime, plural } from '@/lib/format';
import { toast } from '@/lib/toast';
import { isRealWorkspace } from '@/stores/workspaces-store';
import {
  authorizeGoogleCalendar,
  useDisconnectGoogleCalendar,
  useGoogleCalendarSettings,
  useGoogleCalendarStatus,
  useSyncExistingSessions,
} from '../api/google-calendar-api';
import { leaveFor, rememberConnectingWorkspace } from '../utils/leave-for';

function Frame({ children, description }: { children: ReactNode; description?: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CalendarCheck2 className="size-4 text-primary" aria-hidden />
          Google Calendar
        </CardTitle>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent className="grid gap-5">{children}</CardContent>
    </Card>
  );
}

/**
 * Ajustes › Integraciones › Google Calendar: the therapist's own connection in this workspace. Hidden when the
 * server has no Google keys. Not connected: what it does and «Conectar con Google»; connected: the account,
 * the title format, the calendars whose busy times count, the existing sessions, and disconnecting.
 */
export function GoogleCalendarCard({ workspaceId }: { workspaceId: string }) {
  const status = useGoogleCalendarStatus(workspaceId, isRealWorkspace(workspaceId));
  if (status.isPending)
    return (
      <Frame>
        <Spinner label="Cargando la conexión con Google Calendar" />
      </Frame>
    );
  if (status.isError)
    return (
      <Frame>
        <Alert variant="error">{messageOf(status.error)}</Alert>
        <div>
          <Button type="button" variant="outline" size="sm" onClick={() => void status.refetch()} loading={status.isFetching}>
            <RefreshCw aria-hidden /> Reintentar
          </Button>
        </div>
      </Frame>
    );
  if (!status.data.enabled) return null;
  return status.data.connected ? <Connected workspaceId={workspaceId} status={status.data} /> : <NotConnected workspaceId={workspaceId} />;
}

function NotConnected({ workspaceId }: { workspaceId: string }) {
  const [starting, setStarting] = useState(false);
  const connect = async () => {
    setStarting(true);
    try {
      const { url } = await authorizeGoogleCalendar(workspaceId);
      rememberConnectingWorkspace(workspaceId);
      leaveFor(url);
    } catch (err) {
      setStarting(false);
      toast.error(messageOf(err));
    }
  };
  return (
    <Frame description="Tus sesiones de Diván en tu Google Calendar, y tus citas de Google bloqueando tu agenda.">
      <ul className="grid list-disc gap-1.5 pl-5 text-sm leading-relaxed">
        <li>
          Se sincronizan las sesiones que crees <strong className="font-medium">a partir de ahora</strong>, en un calendario aparte llamado
          «Diván». Si quieres, también podrás enviar las sesiones futuras que ya tienes.
        </li>
        <li>Las sesiones online con Google Meet llevan su enlace de Meet, que verás en la sesión y en el recordatorio.</li>
        <li>
          Las horas ocupadas de los calendarios de Google que elijas aparecen en gris en tu agenda y dejan de ofrecerse en tu página de
          reservas. Nunca se convierten en sesiones.
        </li>
        <li>
          A Google solo llega el título que elijas (por defecto, las iniciales del paciente) y la hora: nunca el motivo de consulta ni las
          notas.
        </li>
      </ul>
      <div>
        <Button type="button" onClick={() => void connect()} loading={starting}>
          Conectar con Google
        </Button>
      </div>
    </Frame>
  );
}

const when = (iso: string) => `${formatDate(iso)} a las ${formatTime(iso)}`;

function Connected({ workspaceId, status }: { workspaceId: string; status: GoogleCalendarStatus }) {
  const settings = useGoogleCalendarSettings(workspaceId);
  const syncExisting = useSyncExistingSessions(workspaceId);
  const disconnect = useDisconnectGoogleCalendar(workspaceId);
  const [queued, setQueued] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  // What is being saved shows at once; the server's answer replaces it.
  const [pendingFormat, setPendingFormat] = useState<GoogleTitleFormat | null>(null);
  const [pendingBusy, setPendingBusy] = useState<string[] | null>(null);
  const titleFormat = pendingFormat ?? status.titleFormat;
  const busyIds = pendingBusy ?? status.busyCalendarIds;
  const full = busyIds.length >= GOOGLE_BUSY_CALENDARS_MAX;

  const saveFormat = (format: GoogleTitleFormat) => {
    setPendingFormat(format);
    settings.mutate(
      { titleFormat: format },
      {
        onSuccess: () => toast.success('Formato del título guardado'),
        onError: (err) => toast.error(messageOf(err)),
        onSettled: () => setPendingFormat(null),
      },
    );
  };
  const toggleCalendar = (id: string) => {
    const next = busyIds.includes(id) ? busyIds.filter((x) => x !== id) : [...busyIds, id];
    setPendingBusy(next);
    settings.mutate(
      { busyCalendarIds: next },
      {
        onSuccess: () => toast.success('Calendarios guardados'),
        onError: (err) => toast.error(messageOf(err)),
        onSettled: () => setPendingBusy(null),
      },
    );
  };
  const sendExisting = () =>
    syncExisting.mutate(undefined, {
      onSuccess: ({ queued: n }) => {
        setQueued(n);
        toast.success(n ? `${plural(n, 'sesión enviada', 'sesiones enviadas')} a Google Calendar` : 'No hay sesiones futuras que enviar');
      },
      onError: (err) => toast.error(messageOf(err)),
    });

  return (
    <Frame description="Tus sesiones van al calendario «Diván» de tu cuenta de Google, y tus horas ocupadas de Google bloquean tu agenda.">
      <div className="grid gap-1 rounded-lg border bg-muted/40 px-4 py-3 text-sm">
        <p>
          Conectado con <strong className="font-medium break-all">{status.googleEmail ?? 'tu cuenta de Google'}</strong>
          {status.connectedAt ? ` desde el ${formatDate(status.connectedAt)}` : ''}
        </p>
        <p className="text-muted-foreground">
          {status.lastSyncedAt
            ? `Última sincronización con Google: ${when(status.lastSyncedAt)}`
            : 'Aún no se ha sincronizado nada desde Google.'}
        </p>
      </div>

      <fieldset className="grid gap-2" disabled={settings.isPending}>
        <legend className="mb-1 text-sm font-medium">Título de las sesiones en Google</legend>
        <p className="-mt-1 text-xs text-muted-foreground">
          Es lo que se ve en tu móvil y en la pantalla de bloqueo. El motivo de consulta y las notas nunca se envían.
        </p>
        <div className="grid gap-1.5" role="radiogroup" aria-label="Título de las sesiones en Google">
          {GOOGLE_TITLE_FORMATS.map((format) => (
            <label key={format} className="flex cursor-pointer items-start gap-2.5 text-sm has-disabled:cursor-not-allowed">
              <input
                type="radio"
                name="google-title-format"
                value={format}
                className="mt-0.5 size-4 accent-[var(--color-primary)]"
                checked={titleFormat === format}
                onChange={() => saveFormat(format)}
              />
              <span>{GOOGLE_TITLE_FORMAT_LABELS[format]}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset className="grid gap-2" disabled={settings.isPending}>
        <legend className="mb-1 text-sm font-medium">Calendarios que marcan tus horas como ocupadas</legend>
        <p className="-mt-1 text-xs text-muted-foreground">
          Sus citas se ven en gris en tu agenda (solo «Ocupado en Google», sin detalles) y quitan esas horas de tu página de reservas. Hasta{' '}
          {GOOGLE_BUSY_CALENDARS_MAX} calendarios.
        </p>
        {status.calendars.length ? (
          <ul className="grid gap-1.5" aria-label="Calendarios de Google">
            {status.calendars.map((cal) => {
              const checked = busyIds.includes(cal.id);
              return (
                <li key={cal.id}>
                  <label className="flex cursor-pointer items-center gap-2.5 text-sm has-disabled:cursor-not-allowed">
                    <input
                      type="checkbox"
                      className="size-4 shrink-0 accent-[var(--color-primary)]"
                      checked={checked}
                      disabled={!checked && full}
                      onChange={() => toggleCalendar(cal.id)}
                    />
                    <span
                      aria-hidden
                      className="size-2.5 shrink-0 rounded-full border"
                      style={cal.color ? { backgroundColor: cal.color, borderColor: cal.color } : undefined}
                    />
                    <span className="min-w-0 break-words">
                      {cal.name}
                      {cal.primary ? <span className="text-muted-foreground"> (principal)</span> : null}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        ) : (
          <Alert>No hemos podido leer tus calendarios de Google ahora mismo. Vuelve a abrir esta página dentro de un rato.</Alert>
        )}
      </fieldset>

      <div className="grid gap-2 border-t pt-4">
        <h3 className="text-sm font-medium">Sesiones que ya tenías</h3>
        {queued !== null ? (
          <p role="status" className="text-sm">
            {queued
              ? `${plural(queued, 'sesión futura se está enviando', 'sesiones futuras se están enviando')} a Google Calendar.`
              : 'No había sesiones futuras que enviar.'}{' '}
            Desde ahora se sincronizan todas tus sesiones.
          </p>
        ) : status.existingSynced ? (
          <p className="text-sm text-muted-foreground">Todas tus sesiones se sincronizan, también las que ya existían al conectar.</p>
        ) : (
          <>
            <p className="text-sm text-muted-foreground">
              Solo se sincronizan las sesiones creadas después de conectar. Puedes enviar también tus sesiones futuras que ya existían.
            </p>
            <div>
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="h-auto! min-h-8 whitespace-normal! py-1.5 text-left"
                onClick={sendExisting}
                loading={syncExisting.isPending}
              >
                Sincronizar también las sesiones futuras existentes
              </Button>
            </div>
          </>
        )}
      </div>

      <div className="flex flex-wrap items-center justify-between gap-3 border-t pt-4">
        <p className="text-sm text-muted-foreground">Puedes desconectar Google Calendar cuando quieras.</p>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="text-destructive hover:bg-destructive/10"
          onClick={() => setConfirming(true)}
        >
          Desconectar
        </Button>
      </div>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="¿Desconectar Google Calendar?"
        description={
          <>
            Diván dejará de enviar tus sesiones a Google y de leer tus horas ocupadas, y retiraremos su acceso a tu cuenta de Google. Las
            sesiones ya enviadas se quedan en el calendario «Diván» de Google: puedes borrarlo allí si ya no lo quieres.
          </>
        }
        confirmLabel="Desconectar"
        onConfirm={async () => {
          await disconnect.mutateAsync();
          toast.success('Google Calendar desconectado');
        }}
      />
    </Frame>
  );
}
