import type { ReactNode } from 'react';
import { Eye } from 'lucide-react';
import type { LearningMedia, LearningVideo } from '@divan/core';
import { Spinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/ui/states';
import { useProgressSaver } from '../api/use-progress-saver';
import { FilePlayer } from './file-player';
import { CardArt } from './video-card';
import { VimeoPlayer } from './vimeo-player';

type MediaQuery = {
  data: LearningMedia | undefined;
  isPending: boolean;
  isFetching: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
};

export const previewNotice = (seconds: number) => `Vista previa de ${seconds} s — compra el vídeo para verlo entero`;

/** The card's colour and icon where the video would be: no preview, not bought yet, or loading. */
function Poster({ video, children }: { video: Pick<LearningVideo, 'colour' | 'iconUrl'>; children?: ReactNode }) {
  return (
    <div className="relative">
      <CardArt card={video} className="aspect-video" big />
      {children ? (
        <div className="absolute inset-x-0 bottom-0 grid justify-items-center gap-2 bg-black/55 p-3 text-center text-sm text-white">
          {children}
        </div>
      ) : null}
    </div>
  );
}

/**
 * What plays: the full video for a buyer (a file in the native player, or Vimeo's), otherwise the preview the
 * server cut at N seconds, or the poster when there is none. Progress is saved for the full video only.
 */
export function VideoStage({
  video,
  media,
  autoPlay,
  onPreviewEnded,
}: {
  video: LearningVideo;
  media: MediaQuery;
  autoPlay: boolean;
  onPreviewEnded: () => void;
}) {
  const full = video.purchased ? (media.data?.full ?? null) : null;
  const events = useProgressSaver(video.id, !!full);
  const resumeAt = video.progress?.completedAt ? 0 : (video.progress?.positionSeconds ?? 0);

  if (full?.kind === 'file')
    return (
      <FilePlayer
        src={full.url}
        resumeAt={resumeAt}
        autoPlay={autoPlay}
        events={events}
        onLinkFailed={() => void media.refetch()}
        label={`Vídeo: ${video.title}`}
      />
    );
  if (full?.kind === 'vimeo')
    return <VimeoPlayer url={full.url} resumeAt={resumeAt} autoPlay={autoPlay} events={events} label={`Vídeo: ${video.title}`} />;

  if (media.isError && !media.data)
    return (
      <Poster video={video}>
        <LoadError what="el vídeo" error={media.error} onRetry={() => void media.refetch()} />
      </Poster>
    );
  if (!media.data || (video.purchased && media.isFetching))
    return (
      <Poster video={video}>
        <Spinner className="text-white" label="Cargando el vídeo…" />
      </Poster>
    );
  if (video.purchased) return <Poster video={video}>El vídeo todavía no está disponible: vuelve a intentarlo en un rato.</Poster>;

  const preview = media.data.preview;
  if (!preview) return <Poster video={video}>Este vídeo no tiene vista previa: cómpralo para verlo entero.</Poster>;
  return (
    <div className="grid">
      <video
        src={preview.url}
        controls
        playsInline
        preload="metadata"
        aria-label={`Vista previa: ${video.title}`}
        className="aspect-video w-full bg-black"
        onEnded={onPreviewEnded}
      />
      <p className="flex items-center gap-2 bg-card px-4 py-2.5 text-sm" role="note">
        <Eye className="size-4 shrink-0 text-primary" aria-hidden />
        {previewNotice(preview.seconds)}
      </p>
    </div>
  );
}
