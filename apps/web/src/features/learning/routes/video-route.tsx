import { useEffect, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, SearchX, X } from 'lucide-react';
import type { LearningVideo } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { EmptyState, LoadError } from '@/components/ui/states';
import { isApiError } from '@/lib/api-client';
import { usePermits } from '@/lib/permits';
import { toast } from '@/lib/toast';
import { usePageTitle } from '@/lib/use-page-title';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';
import { refreshAfterPurchase, useLearningMedia, useLearningVideo } from '../api/learning-api';
import { PurchasePanel } from '../components/purchase-panel';
import { OwnedPanel, RelatedVideos, VideoDetails } from '../components/video-details';
import { VideoStage } from '../components/video-stage';

/** Back from the bank's page, the webhook may still be on its way: asked every 2 s, for a minute and a half. */
const CONFIRM_POLL_MS = 2_000;
const CONFIRM_WAIT_MS = 90_000;

export const videoTexts = {
  confirming: 'Estamos confirmando el pago con tu banco…',
  slow: 'El pago aún se está confirmando. En cuanto llegue, el vídeo aparecerá como comprado: recarga la página en un momento.',
  canceled: 'Has cancelado la confirmación del banco: no se ha cobrado nada.',
  bought: 'Compra completada: ya puedes ver el vídeo entero',
} as const;

/** /learn/video/:id: the player (preview or full), the purchase form or the buyer's panel, details, related. */
export function VideoRoute() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const returned = params.get('purchase');
  const ws = useCurrentWorkspace();
  const video = useLearningVideo(id, isRealWorkspace(ws.id) ? ws.id : null, returned === 'done' ? CONFIRM_POLL_MS : false);
  usePageTitle(video.data?.title, 'Formación');

  // Background failures keep the page: only a first load that fails shows the error.
  if (video.data) return <VideoPage key={id} video={video.data} returned={returned} />;
  if (video.isError) {
    const gone = isApiError(video.error) && [400, 404].includes(video.error.status);
    return gone ? (
      <div className="rounded-xl border bg-card">
        <EmptyState icon={<SearchX aria-hidden />} title="Este vídeo no está disponible" text={video.error.message}>
          <Button variant="outline" asChild>
            <Link to="/learn/library">Ir a la biblioteca</Link>
          </Button>
        </EmptyState>
      </div>
    ) : (
      <LoadError what="el vídeo" error={video.error} onRetry={() => void video.refetch()} />
    );
  }
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]" aria-busy="true">
      <div className="aspect-video animate-pulse rounded-xl bg-muted" />
      <div className="h-64 animate-pulse rounded-xl bg-muted" />
    </div>
  );
}

function VideoPage({ video, returned }: { video: LearningVideo; returned: string | null }) {
  const qc = useQueryClient();
  const [, setParams] = useSearchParams();
  const media = useLearningMedia(video.id);
  const ws = useCurrentWorkspace();
  const permits = usePermits();
  const decides = isRealWorkspace(ws.id) && (ws.isOwner || permits.can('update', 'workspace_billing'));
  const [autoPlay, setAutoPlay] = useState(false);
  const [slow, setSlow] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  const clearReturn = () =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete('purchase');
        return next;
      },
      { replace: true },
    );

  // Back from the bank's page: once the purchase is confirmed, the full video starts.
  const confirming = returned === 'done';
  useEffect(() => {
    if (!confirming) return;
    if (video.purchased) {
      void refreshAfterPurchase(qc, video.id);
      setAutoPlay(true);
      toast.success(videoTexts.bought);
      clearReturn();
      return;
    }
    const timer = setTimeout(() => {
      setSlow(true);
      clearReturn();
    }, CONFIRM_WAIT_MS);
    return () => clearTimeout(timer);
    // clearReturn only writes the address.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [confirming, video.purchased, video.id, qc]);

  // The preview is over: the purchase form, in view and in focus.
  const previewEnded = () => {
    heading.current?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
    heading.current?.focus({ preventScroll: true });
  };

  return (
    <div className="grid gap-8">
      <Link
        to="/learn/library"
        className="inline-flex items-center gap-1.5 justify-self-start text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft className="size-4" aria-hidden /> Biblioteca
      </Link>
      {confirming && !video.purchased ? <Alert>{videoTexts.confirming}</Alert> : null}
      {slow && !video.purchased ? <Alert>{videoTexts.slow}</Alert> : null}
      {returned === 'canceled' && !video.purchased ? (
        <Alert className="flex items-start gap-3">
          <span className="flex-1">{videoTexts.canceled}</span>
          <button
            type="button"
            onClick={clearReturn}
            aria-label="Ocultar aviso"
            className="-m-1 rounded-md p-1 opacity-80 hover:opacity-100"
          >
            <X className="size-4" aria-hidden />
          </button>
        </Alert>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
        <div className="min-w-0 overflow-hidden rounded-xl border bg-black">
          <VideoStage video={video} media={media} autoPlay={autoPlay} onPreviewEnded={previewEnded} />
        </div>
        <aside className="grid gap-4 lg:sticky lg:top-6 lg:col-start-2 lg:row-span-2 lg:row-start-1">
          {video.purchased ? (
            <OwnedPanel video={video} />
          ) : (
            <PurchasePanel
              video={video}
              workspace={ws}
              decides={decides}
              onPurchased={() => {
                setAutoPlay(true);
                toast.success(videoTexts.bought);
              }}
              headingRef={heading}
            />
          )}
        </aside>
        <VideoDetails video={video} />
      </div>
      <RelatedVideos items={video.related} />
    </div>
  );
}

export { VideoRoute as Component };
