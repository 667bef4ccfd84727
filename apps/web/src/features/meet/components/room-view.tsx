import { useState } from 'react';
import { Link2, Mic, MicOff, PhoneOff, Settings2, Video, VideoOff } from 'lucide-react';
import type { MeetJoin } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogHeader } from '@/components/ui/dialog';
import { formatTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import type { LocalMedia } from '../hooks/use-local-media';
import type { useMeetRoom } from '../hooks/use-meet-room';
import { DeviceSelect } from './device-select';
import { MediaProblemNotice } from './media-problem';
import { RoundToggle } from './round-toggle';
import { VideoTile } from './video-tile';

type Room = ReturnType<typeof useMeetRoom>;

/** What the stage says while there is no picture of the other one (null: the call is on). */
function stageMessage(join: MeetJoin, r: Room, other: string): string | null {
  if (r.socketStatus === 'reconnecting') return 'Se ha perdido la conexión. Reconectando…';
  if (!r.room) return 'Entrando en la sala…';
  if (!r.room.admitted) return `Estás en la sala de espera. ${join.session.therapistName} te dará paso enseguida.`;
  if (!r.room.peer)
    return join.role === 'therapist' ? `${other} aún no ha entrado.` : `${other} aún no está en la sala. Espera un momento.`;
  if (!r.room.peer.admitted) return null; // the therapist's banner says it
  if (r.callState === 'connected') return null;
  if (r.callState === 'disconnected' || r.callState === 'failed') return 'Se ha perdido la conexión. Reconectando…';
  return `Conectando con ${other}…`;
}

/** The call: the other one's picture filling the screen, one's own in a corner, the controls at the bottom. */
export function RoomView({ join, media, r }: { join: MeetJoin; media: LocalMedia; r: Room }) {
  const [devicesOpen, setDevicesOpen] = useState(false);
  const other = join.role === 'therapist' ? (join.session.patientName ?? 'Tu paciente') : join.session.therapistName;
  const message = stageMessage(join, r, other);
  const waiting = join.role === 'therapist' && r.room?.peer && !r.room.peer.admitted;
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(join.patientLink ?? '');
      toast.success('Enlace copiado. Envíaselo a tu paciente.');
    } catch {
      toast.error('No se ha podido copiar el enlace.');
    }
  };

  return (
    <div className="fixed inset-0 flex flex-col bg-[#101716] text-white" data-call-state={r.callState}>
      <header className="flex items-center gap-3 px-4 pb-2 pt-3 sm:px-6">
        <div className="min-w-0 flex-1">
          <h1 className="truncate font-display text-lg font-semibold leading-tight">{other}</h1>
          <p className="text-sm text-white/70">
            {formatTime(join.session.startsAt)}–{formatTime(join.session.endsAt)}
          </p>
        </div>
        {r.callState === 'connected' ? (
          <span className="rounded-full bg-emerald-500/20 px-2.5 py-1 text-xs font-medium text-emerald-200">En llamada</span>
        ) : null}
      </header>

      <div className="relative min-h-0 flex-1 px-2 sm:px-4">
        <div className="relative size-full overflow-hidden rounded-2xl bg-black/40">
          {r.remote ? (
            <VideoTile stream={r.remote} label={`Vídeo de ${other}`} className="size-full object-cover sm:object-contain" />
          ) : null}
          <div aria-live="polite" className="pointer-events-none absolute inset-0 grid place-items-center p-6">
            {message ? <p className="max-w-sm text-center text-[0.9375rem] leading-relaxed text-white/85">{message}</p> : null}
          </div>
          {waiting ? (
            <div
              role="status"
              className="absolute inset-x-3 top-3 mx-auto flex max-w-md flex-wrap items-center gap-3 rounded-xl bg-white p-3 pl-4 text-foreground shadow-xl"
            >
              <p className="min-w-0 flex-1 text-[0.9375rem] font-medium">{other} espera para entrar</p>
              <Button onClick={r.admit} autoFocus>
                Admitir
              </Button>
            </div>
          ) : null}
          {join.role === 'therapist' && r.room && !r.room.peer && join.patientLink ? (
            <div className="absolute inset-x-0 bottom-36 flex justify-center sm:bottom-6">
              <Button
                variant="outline"
                size="sm"
                className="border-white/25 bg-white/10 text-white hover:bg-white/20"
                onClick={() => void copyLink()}
              >
                <Link2 aria-hidden /> Copiar enlace del paciente
              </Button>
            </div>
          ) : null}
          <div className="absolute bottom-3 right-3 aspect-[3/4] w-24 overflow-hidden rounded-xl border border-white/20 bg-neutral-800 shadow-lg sm:aspect-video sm:w-56">
            {media.preview ? (
              <VideoTile stream={media.preview} muted mirrored label="Tu cámara" className="size-full object-cover" />
            ) : (
              <div className="grid size-full place-items-center p-2 text-center text-xs text-white/70">Cámara apagada</div>
            )}
          </div>
        </div>
      </div>

      <footer className="flex flex-wrap items-center justify-center gap-3 px-4 pt-3 pb-[max(1rem,env(safe-area-inset-bottom))]">
        <RoundToggle
          on={media.micOn && !!media.tracks.audio}
          disabled={!media.tracks.audio}
          onClick={media.toggleMic}
          label="Micrófono"
          onIcon={Mic}
          offIcon={MicOff}
        />
        <RoundToggle on={media.camOn} onClick={() => void media.toggleCamera()} label="Cámara" onIcon={Video} offIcon={VideoOff} />
        <button
          type="button"
          onClick={() => setDevicesOpen(true)}
          aria-label="Elegir cámara y micrófono"
          title="Elegir cámara y micrófono"
          className="grid size-12 cursor-pointer place-items-center rounded-full bg-white/15 text-white shadow-md hover:bg-white/25 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
        >
          <Settings2 className="size-5" aria-hidden />
        </button>
        <Button variant="destructive" className="h-12 rounded-full bg-red-600 px-5 hover:bg-red-700" onClick={r.leave}>
          <PhoneOff aria-hidden /> Salir
        </Button>
      </footer>

      <Dialog open={devicesOpen} onOpenChange={setDevicesOpen}>
        <DialogContent className="max-w-md">
          <DialogHeader title="Cámara y micrófono" description="El cambio se aplica al momento, sin cortar la llamada." />
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
          {media.devices.audio.length + media.devices.video.length === 0 ? (
            <p className="text-sm text-muted-foreground">No hay cámaras ni micrófonos disponibles.</p>
          ) : null}
        </DialogContent>
      </Dialog>
      {media.problem && !devicesOpen ? (
        <div className="absolute inset-x-3 top-16 mx-auto max-w-md">
          <MediaProblemNotice problem={media.problem} onRetry={() => void media.retry()} busy={media.pending} />
        </div>
      ) : null}
    </div>
  );
}
