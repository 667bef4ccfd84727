import { useState } from 'react';
import { CalendarSync, Copy } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { messageOf } from '@/lib/error-message';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useRegenerateFeed, useRevokeFeed, useCalendarFeed, useUpdateFeed } from '../api/calendar-feed-api';

/**
 * The therapist's private calendar feed (iCal) for one workspace: make it, copy its URL (shown once:
 * the server keeps it hashed), show full names or initials, make a new one or turn it off.
 */
export function CalendarFeedCard({ workspaceId, workspaceName }: { workspaceId: string; workspaceName: string }) {
  const { data: feed, isPending, error } = useCalendarFeed(workspaceId);
  const regenerate = useRegenerateFeed(workspaceId);
  const update = useUpdateFeed(workspaceId);
  const revoke = useRevokeFeed(workspaceId);
  const [url, setUrl] = useState<string | null>(null);
  const [fullNames, setFullNames] = useState(false);
  const [confirm, setConfirm] = useState<'new' | 'off' | null>(null);

  if (error) return <Alert variant="error">{messageOf(error)}</Alert>;
  if (isPending || !feed) return <Spinner label="Cargando el calendario privado" />;

  const make = async () => {
    const made = await regenerate.mutateAsync(feed.active ? feed.showFullNames : fullNames);
    setUrl(made?.url ?? null);
  };
  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      toast.success('Enlace copiado');
    } catch {
      toast.error('No se ha podido copiar: selecciona el enlace y cópialo a mano');
    }
  };
  const showNames = feed.active ? feed.showFullNames : fullNames;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CalendarSync className="size-4 text-primary" aria-hidden />
          Tu agenda en otro calendario
        </CardTitle>
        <CardDescription>
          Un enlace privado (iCal) con tus sesiones de «{workspaceName}», desde 60 días atrás hasta un año adelante, para Google Calendar,
          el calendario de Apple u Outlook. Se actualiza solo; las sesiones canceladas aparecen como canceladas.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <label className="flex items-start gap-2.5 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 size-4 accent-[var(--color-primary)]"
            checked={showNames}
            disabled={update.isPending}
            onChange={() => {
              if (!feed.active) return setFullNames(!fullNames);
              update.mutate(!feed.showFullNames, { onError: (err) => toast.error(messageOf(err)) });
            }}
          />
          <span className="grid gap-0.5">
            <span className="font-medium">Mostrar el nombre completo de los pacientes</span>
            <span className="text-xs text-muted-foreground">
              Si no, solo sus iniciales (p. ej. «Sesión · A. P.»): tu móvil las enseña en la pantalla de bloqueo.
            </span>
          </span>
        </label>

        {url ? (
          <div className="grid gap-2">
            <label htmlFor="feed-url" className="text-sm font-medium">
              Tu enlace privado
            </label>
            <div className="flex gap-2">
              <Input id="feed-url" readOnly value={url} onFocus={(e) => e.currentTarget.select()} className="font-mono text-xs" />
              <Button type="button" variant="outline" onClick={copy}>
                <Copy aria-hidden />
                Copiar
              </Button>
            </div>
            <div className="flex flex-wrap gap-2">
              <Button asChild variant="secondary" size="sm">
                <a href={url.replace(/^https?:/, 'webcal:')}>Abrir en el calendario</a>
              </Button>
            </div>
            <Alert>
              Cópialo ahora: por seguridad no volveremos a mostrarlo. Quien lo tenga ve tu agenda; si lo pierdes o lo compartes por error,
              crea uno nuevo.
            </Alert>
          </div>
        ) : null}

        {feed.active ? (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-muted-foreground">
              Enlace activo desde el {formatDate(feed.createdAt)}
              {feed.lastReadAt ? ` · último uso el ${formatDate(feed.lastReadAt)}` : ' · aún sin usar'}
            </p>
            <div className="flex gap-2">
              <Button type="button" variant="outline" size="sm" onClick={() => setConfirm('new')}>
                Crear un enlace nuevo
              </Button>
              <Button type="button" variant="ghost" size="sm" onClick={() => setConfirm('off')}>
                Desactivar
              </Button>
            </div>
          </div>
        ) : (
          <div>
            <Button
              type="button"
              onClick={() => make().catch((err: unknown) => toast.error(messageOf(err)))}
              loading={regenerate.isPending}
            >
              Crear enlace privado
            </Button>
          </div>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirm === 'new'}
        onOpenChange={(open) => setConfirm(open ? 'new' : null)}
        title="¿Crear un enlace nuevo?"
        description="El enlace actual dejará de funcionar: tendrás que añadir el nuevo en tus calendarios."
        confirmLabel="Crear enlace nuevo"
        destructive={false}
        onConfirm={make}
      />
      <ConfirmDialog
        open={confirm === 'off'}
        onOpenChange={(open) => setConfirm(open ? 'off' : null)}
        title="¿Desactivar el enlace?"
        description="Tus calendarios dejarán de recibir tus sesiones. Podrás crear otro enlace cuando quieras."
        confirmLabel="Desactivar"
        onConfirm={async () => {
          await revoke.mutateAsync(undefined);
          setUrl(null);
        }}
      />
    </Card>
  );
}
