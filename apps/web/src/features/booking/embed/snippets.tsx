import { useId, useState } from 'react';
import { Copy, ExternalLink } from 'lucide-react';
import type { BookingService } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/lib/toast';
import { bookingPageUrl, embedSnippet, plainIframe, type EmbedMode, type EmbedTarget } from './embed-model';

const MODES: { mode: EmbedMode; title: string; text: string }[] = [
  { mode: 'iframe', title: 'Dentro de tu página', text: 'La reserva aparece en el sitio donde pegues el código y crece con su contenido.' },
  { mode: 'button', title: 'Botón «Reservar cita»', text: 'Un botón que abre la reserva encima de tu web; se cierra con Escape.' },
];

/** The codes to paste on the therapist's website, for the whole booking page or for one active service. */
export function Snippets({ wid, services, showTherapist }: { wid: string; services: BookingService[]; showTherapist: boolean }) {
  const origin = window.location.origin;
  const [choice, setChoice] = useState('index');
  const active = services.filter((s) => s.status === 'active');
  const service = active.find((s) => s.id === choice);
  const target: EmbedTarget = service ? { kind: 'service', therapistId: service.therapist.id, serviceId: service.id } : { kind: 'index' };
  const url = bookingPageUrl(origin, wid, target);
  const options = [
    { value: 'index', label: 'Toda tu página de reserva' },
    ...active.map((s) => ({ value: s.id, label: showTherapist ? `${s.title} · ${s.therapist.name}` : s.title })),
  ];

  return (
    <div className="grid gap-4">
      <div className="grid gap-1">
        <h3 className="font-semibold">Código para tu web</h3>
        <p className="text-sm text-muted-foreground">Copia el código y pégalo en tu web, en un bloque de «HTML personalizado» o similar.</p>
      </div>
      <Field
        label="Qué quieres mostrar"
        hint={active.length ? undefined : 'Cuando tengas servicios activos podrás insertar también cada uno por separado.'}
      >
        <NativeSelect value={service ? service.id : 'index'} onChange={(e) => setChoice(e.target.value)} options={options} />
      </Field>
      <p className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-sm">
        <span className="text-muted-foreground">Enlace directo:</span>
        <a
          href={url}
          target="_blank"
          rel="noreferrer"
          className="inline-flex min-w-0 items-center gap-1 break-all font-medium text-primary underline-offset-4 hover:underline"
        >
          {url} <ExternalLink className="size-3.5 shrink-0" aria-hidden />
          <span className="sr-only">(se abre en otra pestaña)</span>
        </a>
      </p>
      <div className="grid gap-3 lg:grid-cols-2">
        {MODES.map((m) => (
          <CodeBlock key={m.mode} title={m.title} text={m.text} code={embedSnippet(origin, url, m.mode)} />
        ))}
      </div>
      <details className="rounded-lg border bg-card p-3 text-sm">
        <summary className="cursor-pointer font-medium">¿Tu web no admite scripts?</summary>
        <div className="mt-3">
          <CodeBlock
            title="Solo la página, sin script"
            text="Se muestra con una altura fija: si la reserva es más larga, tendrá su propia barra de desplazamiento."
            code={plainIframe(url)}
          />
        </div>
      </details>
    </div>
  );
}

function CodeBlock({ title, text, code }: { title: string; text: string; code: string }) {
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      toast.success('Código copiado');
    } catch {
      toast.error('No se ha podido copiar: selecciona el código y cópialo a mano');
    }
  };
  return (
    <section className="grid min-w-0 content-start gap-2 rounded-lg border bg-card p-3" aria-labelledby={`${id}-title`}>
      <div className="flex items-start justify-between gap-2">
        <div className="grid gap-0.5">
          <h4 id={`${id}-title`} className="text-sm font-semibold">
            {title}
          </h4>
          <p className="text-[0.8125rem] text-muted-foreground">{text}</p>
        </div>
        <Button variant="outline" size="sm" onClick={() => void copy()} aria-label={`Copiar el código: ${title}`}>
          <Copy aria-hidden /> Copiar
        </Button>
      </div>
      <textarea
        readOnly
        value={code}
        aria-label={`Código: ${title}`}
        rows={3}
        onFocus={(e) => e.currentTarget.select()}
        className="w-full resize-none rounded-md border bg-muted/50 p-2 font-mono text-xs leading-relaxed"
      />
    </section>
  );
}
