import { useEffect, useRef } from 'react';
import type { PlaybackEvents } from '../api/use-progress-saver';
import { nearTheEnd } from '../utils/format';

/**
 * The full video from a file: the platform's own player (no library), its signed link set by hand so a
 * renewed link (they expire) replaces the old one keeping the time and whether it played. Resumes at
 * `resumeAt`; a link that fails (it expired while the tab slept) asks for a new one.
 */
export function FilePlayer({
  src,
  resumeAt,
  autoPlay,
  events,
  onLinkFailed,
  label,
}: {
  src: string;
  resumeAt: number;
  autoPlay: boolean;
  events: PlaybackEvents;
  onLinkFailed: () => void;
  label: string;
}) {
  const ref = useRef<HTMLVideoElement>(null);
  const restore = useRef<{ time: number; play: boolean } | null>({ time: resumeAt, play: autoPlay });
  const failedAt = useRef(0);

  // Asked to start after it mounted (the purchase said so a moment later): still before it has loaded.
  useEffect(() => {
    if (autoPlay && restore.current) restore.current.play = true;
  }, [autoPlay]);

  useEffect(() => {
    const v = ref.current;
    if (!v || v.getAttribute('src') === src) return;
    // A renewed link: the same video from where it was (the jump back is a seek, not watched time).
    if (v.getAttribute('src')) {
      restore.current = { time: v.currentTime, play: !v.paused };
      events.seeking();
    }
    v.src = src;
  }, [src, events]);

  const onLoaded = () => {
    const v = ref.current;
    const r = restore.current;
    restore.current = null;
    if (!v || !r) return;
    if (r.time > 0 && !nearTheEnd(r.time, v.duration)) v.currentTime = r.time;
    // The browser may refuse to start without a gesture (old ones answer no promise): the controls are there.
    if (r.play) v.play()?.catch(() => undefined);
  };

  const at = () => ref.current?.currentTime ?? 0;
  return (
    <video
      ref={ref}
      controls
      playsInline
      preload="metadata"
      aria-label={label}
      className="aspect-video w-full bg-black"
      onLoadedMetadata={onLoaded}
      onTimeUpdate={() => {
        const v = ref.current;
        if (v) events.time(v.currentTime, !v.paused && !v.seeking);
      }}
      onSeeking={events.seeking}
      onPlay={events.play}
      onPause={() => events.pause(at())}
      onEnded={() => events.pause(at())}
      onError={() => {
        // Once a minute at most: a video that really fails must not ask for links in a loop.
        if (Date.now() - failedAt.current < 60_000) return;
        failedAt.current = Date.now();
        if (ref.current) restore.current = { time: ref.current.currentTime, play: !ref.current.paused };
        onLinkFailed();
      }}
    />
  );
}
