import { Mic, MicOff, Video, VideoOff } from 'lucide-react';
import type { MeetJoin } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';
import { formatDate, formatTime } from '@/lib/format';
import type { LocalMedia } from '../hooks/use-local-media';
import { DeviceSelect } from './device-select';
import { MediaProblemNotice } from './media-problem';
import { RoundToggle } from './round-toggle';
import { VideoTile } from './video-tile';

/** Before entering: the camera's preview, the devices, and one button. Entering is what lets the call play sound. */
export function Lobby({ join, media, onEnter }: { join: MeetJoin; media: LocalMedia; onEnter: () => void }) {
  const other = join.role === 'therapist' ? (join.session.patientName ?? 'tu paciente') : join.session.therapistName;
  const when = `${formatDate(join.session.startsAt)}, de ${formatTime(join.session.startsAt)} a ${formatTime(join.session.endsAt)}`;
  return (
    <main className="min-h-dvh bg-background px-4 py-5 sm:px-8 sm:py-10">
      <div className="mx-auto grid max-w-5xl gap-6 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] md:items-center md:gap-10">
        <Logo className="md:col-span-2" />
        <div className="relative overflow-hidden rounded-2xl bg-neutral-900 shadow-lg aspect-[4/3] sm:aspect-video">
          {media.preview ? (
            <VideoTile stream={media.preview} muted mirrored label="Tu cámara" className="size-full object-cover" />
          ) : (
            <div className="grid size-full place-items-center p-6 text-center text-sm text-white/80">
              {media.pending ? 'Encendiendo la cámara…' : 'Tu cámara está apagada'}
            </div>
          )}
          <div className="absolute inset-x-0 bottom-3 flex justify-center gap-3">
            <RoundToggle
              on={media.micOn && !!media.tracks.audio}
              disabled={!media.tracks.audio}
              onClick={media.toggleMic}
              label="Micrófono"
              onIcon={Mic}
              offIcon={MicOff}
            />
            <RoundToggle
              on={media.camOn}
              disabled={media.pending}
              onClick={() => void media.toggleCamera()}
              label="Cámara"
              onIcon={Video}
              offIcon={VideoOff}
            />
          </div>
        </div>
        <section aria-labelledby="meet-title" className="grid content-start gap-4">
          <div className="grid gap-1.5">
            <h1 id="meet-title" className="font-display text-[1.625rem] font-semibold leading-tight tracking-tight">
              Videollamada con {other}
            </h1>
            <p className="text-[0.9375rem] text-muted-foreground">{when}</p>
          </div>
          {media.problem ? <MediaProblemNotice problem={media.problem} onRetry={() => void media.retry()} busy={media.pending} /> : null}
          <DeviceSelect
            label="Cámara"
            devices={media.devices.video}
            value={media.choice.videoId}
            onChange={(id) => void media.choose('video', id)}
          />
          <DeviceSelect
            label="Micrófono"
            devices={media.devices.audio}
            value={media.choice.audioId}
            onChange={(id) => void media.choose('audio', id)}
          />
          <Button size="lg" className="w-full sm:w-auto sm:justify-self-start" onClick={onEnter} disabled={media.pending}>
            Entrar en la sala
          </Button>
          <p className="text-sm leading-relaxed text-muted-foreground">
            {join.role === 'patient' ? `${join.session.therapistName} te dará paso en cuanto entres. ` : ''}
            La llamada va directamente entre vuestros dispositivos y nadie la graba.
          </p>
        </section>
      </div>
    </main>
  );
}
