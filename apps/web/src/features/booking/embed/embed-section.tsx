import { Link } from 'react-router';
import { errorMessage } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/ui/states';
import { useAbility } from '@/lib/ability';
import { useBookingServices } from '../api/booking-api';
import { useBookingEmbed } from '../api/booking-embed-api';
import { useBookingScope } from '../api/use-booking-scope';
import { OriginsEditor } from './origins-editor';
import { Snippets } from './snippets';

/** The anchor of the section, linked from the page's header. */
export const EMBED_SECTION_ID = 'insertar-en-tu-web';

/**
 * «Insertar en tu web» (spec §2 open booking setup: embeds): the websites allowed to show the booking
 * pages and the code to paste there. The plan decides (spec §1); without it, why and where to change it.
 */
export function EmbedSection() {
  const { wid, userId, readsAll } = useBookingScope();
  const ability = useAbility();
  const embed = useBookingEmbed(wid);
  const services = useBookingServices(wid);

  let body;
  if (embed.isPending) body = <Spinner />;
  else if (embed.isError) body = <LoadError error={embed.error} onRetry={() => void embed.refetch()} what="las webs permitidas" />;
  else if (!embed.data.embeddingAllowed)
    body = (
      <Alert variant="info">
        {errorMessage('public_service_embedding_not_allowed')} Con el plan Premium o Team puedes mostrar tu reserva online dentro de tu
        propia web. <Link to="/plans">Ver planes</Link>
      </Alert>
    );
  else
    body = (
      <div className="grid gap-6 rounded-xl border bg-card/60 p-4 sm:p-5">
        <OriginsEditor
          key={embed.data.allowedOrigins.join(' ')}
          wid={wid}
          saved={embed.data.allowedOrigins}
          canEdit={ability.can('update', 'workspace_profile')}
        />
        {embed.data.allowedOrigins.length === 0 ? (
          <Alert variant="info">
            Añade primero tu web: hasta entonces, el código no mostrará la reserva dentro de ella (el enlace directo sí funciona).
          </Alert>
        ) : null}
        <Snippets
          wid={wid}
          services={services.data ?? []}
          showTherapist={readsAll && !!services.data?.some((s) => s.therapist.id !== userId)}
        />
      </div>
    );

  return (
    <section className="grid gap-3 scroll-mt-20" id={EMBED_SECTION_ID} aria-labelledby={`${EMBED_SECTION_ID}-heading`}>
      <div className="grid gap-1">
        <h2 id={`${EMBED_SECTION_ID}-heading`} className="text-lg font-semibold">
          Insertar en tu web
        </h2>
        <p className="text-sm text-muted-foreground">Muestra tu reserva online dentro de tu propia web, como página o como botón.</p>
      </div>
      {body}
    </section>
  );
}
