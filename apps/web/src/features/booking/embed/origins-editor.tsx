import { useState, type FormEvent } from 'react';
import { Globe, Plus, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { messageOf } from '@/lib/error-message';
import { toast } from '@/lib/toast';
import { useSaveBookingEmbed } from '../api/booking-embed-api';
import { checkOrigin, sameOrigins } from './embed-model';

/**
 * The websites allowed to show the booking pages inside them (their origins), added one by one and
 * saved together. Read only for who may not edit the workspace's profile.
 */
export function OriginsEditor({ wid, saved, canEdit }: { wid: string; saved: string[]; canEdit: boolean }) {
  const save = useSaveBookingEmbed(wid);
  const [origins, setOrigins] = useState(saved);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const dirty = !sameOrigins(origins, saved);

  const add = (e: FormEvent) => {
    e.preventDefault();
    const checked = checkOrigin(text, origins);
    if (!checked.ok) return setError(checked.message);
    setOrigins([...origins, checked.origin]);
    setText('');
    setError(undefined);
  };
  const submit = async () => {
    try {
      const result = await save.mutateAsync(origins);
      setOrigins(result.allowedOrigins);
      toast.success(
        result.allowedOrigins.length
          ? 'Webs guardadas: ya pueden mostrar tu reserva online'
          : 'Ninguna web puede mostrar tu reserva online',
      );
    } catch (err) {
      toast.error(messageOf(err));
    }
  };

  return (
    <div className="grid gap-3">
      <div className="grid gap-1">
        <h3 className="font-semibold">Webs donde la muestras</h3>
        <p className="text-sm text-muted-foreground">
          Por seguridad, tu reserva online solo se muestra dentro de las webs que indiques aquí. Escribe la dirección principal de tu web,
          sin rutas.
        </p>
      </div>
      {origins.length ? (
        <ul className="grid gap-2" aria-label="Webs permitidas">
          {origins.map((o) => (
            <li key={o} className="flex min-w-0 items-center gap-2 rounded-lg border bg-card px-3 py-2">
              <Globe className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              <span className="min-w-0 flex-1 break-all font-mono text-sm">{o}</span>
              {canEdit ? (
                <Button variant="ghost" size="icon" aria-label={`Quitar ${o}`} onClick={() => setOrigins(origins.filter((x) => x !== o))}>
                  <X aria-hidden />
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="rounded-lg border border-dashed px-3 py-4 text-center text-sm text-muted-foreground">
          Aún no has añadido ninguna web.
        </p>
      )}
      {canEdit ? (
        <>
          <form onSubmit={add} className="grid gap-2 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-start" noValidate>
            <Field label="Añadir una web" error={error} hint="Por ejemplo, https://www.tuconsulta.es">
              <Input
                value={text}
                inputMode="url"
                autoComplete="url"
                placeholder="https://"
                onChange={(e) => {
                  setText(e.target.value);
                  if (error) setError(undefined);
                }}
              />
            </Field>
            <Button type="submit" variant="outline" className="sm:mt-[1.6rem]">
              <Plus aria-hidden /> Añadir
            </Button>
          </form>
          <div className="flex flex-wrap items-center gap-2">
            <Button onClick={() => void submit()} disabled={!dirty} loading={save.isPending}>
              Guardar webs
            </Button>
            {dirty ? (
              <Button variant="ghost" onClick={() => setOrigins(saved)}>
                Descartar cambios
              </Button>
            ) : null}
          </div>
        </>
      ) : (
        <p className="text-sm text-muted-foreground">Solo quien puede editar el perfil del espacio cambia esta lista.</p>
      )}
    </div>
  );
}
