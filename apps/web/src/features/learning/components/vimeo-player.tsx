import { useEffect, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import type { PlaybackEvents } from '../api/use-progress-saver';
import { nearTheEnd } from '../utils/format';

/**
 * A Vimeo-hosted video: Vimeo's player in its iframe, and its library (`@vimeo/player`) loaded here only,
 * so a file's page never downloads it. The iframe is made by hand inside an empty box: the library removes
 * it on `destroy()`, which must not touch what React draws.
 */
export function VimeoPlayer({
  url,
  resumeAt,
  autoPlay,
  events,
  label,
}: {
  url: string;
  resumeAt: number;
  autoPlay: boolean;
  events: PlaybackEvents;
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const host = box.current;
    if (!host) return;
    const src = new URL(url);
    src.searchParams.set('dnt', '1');
    if (autoPlay) src.searchParams.set('autoplay', '1');
    const frame = document.createElement('iframe');
    frame.src = src.toString();
    frame.title = label;
    frame.allow = 'autoplay; fullscreen; picture-in-picture';
    frame.allowFullscreen = true;
    frame.className = 'absolute inset-0 size-full';
    host.appendChild(frame);

    let gone = false;
    let destroy = () => frame.remove();
    import('@vimeo/player')
      .then(({ default: Player }) => {
        if (gone) return;
        const player = new Player(frame);
        destroy = () => void player.destroy().catch(() => frame.remove());
        let playing = false;
        let seeking = false;
        player.on('loaded', () => {
          void player.getDuration().then((d) => {
            events.duration(d);
            if (resumeAt > 0 && !nearTheEnd(resumeAt, d)) void player.setCurrentTime(resumeAt);
          });
        });
        player.on('play', () => {
          playing = true;
          events.play();
        });
        const stop = ({ seconds }: { seconds: number }) => {
          playing = false;
          events.pause(seconds);
        };
        player.on('pause', stop);
        player.on('ended', stop);
        player.on('seeking', () => {
          seeking = true;
          events.seeking();
        });
        player.on('seeked', () => {
          seeking = false;
        });
        player.on('timeupdate', ({ seconds, duration }) => {
          events.duration(duration);
          events.time(seconds, playing && !seeking);
        });
      })
      .catch(() => !gone && setFailed(true));
    return () => {
      gone = true;
      destroy();
    };
    // Made once per link: the resume point and autoplay are read when the player starts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url]);

  return (
    <div className="grid gap-2">
      <div ref={box} className="relative aspect-video w-full overflow-hidden bg-black" />
      {failed ? (
        <Alert variant="error">No se pudo cargar el reproductor de Vimeo. Recarga la página para intentarlo de nuevo.</Alert>
      ) : null}
    </div>
  );
}
