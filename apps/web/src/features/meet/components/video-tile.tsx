import { useEffect, useRef } from 'react';
import { cn } from '@/lib/cn';

/** A <video> showing a live stream (srcObject cannot be set from JSX); how it fills its box comes with `className`. */
export function VideoTile({
  stream,
  muted,
  mirrored,
  label,
  className,
}: {
  stream: MediaStream | null;
  muted?: boolean;
  mirrored?: boolean;
  label: string;
  className?: string;
}) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video || video.srcObject === stream) return;
    video.srcObject = stream;
    if (stream) void video.play().catch(() => undefined);
  }, [stream]);
  return (
    <video
      ref={ref}
      autoPlay
      playsInline
      muted={muted}
      aria-label={label}
      className={cn('bg-black', mirrored && '-scale-x-100', className)}
    />
  );
}
