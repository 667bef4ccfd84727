/** What the page may use: a camera and a microphone chosen by id (undefined: the browser's default). */
export type DeviceChoice = { audioId?: string; videoId?: string };
export type MediaProblem = { kind: 'denied' | 'missing' | 'busy' | 'unsupported' | 'other'; message: string };

/** Why the browser gave no camera or microphone, said in Spanish with what to do. */
export function mediaProblem(error: unknown): MediaProblem {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError')
    return {
      kind: 'denied',
      message:
        'Tu navegador no permite que Diván use la cámara ni el micrófono. Dale permiso desde el icono junto a la dirección de la página y pulsa «Reintentar». Puedes entrar igualmente: te verán y oirán cuando lo permitas.',
    };
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError')
    return {
      kind: 'missing',
      message:
        'No encontramos cámara ni micrófono en este dispositivo. Conecta uno y pulsa «Reintentar», o entra solo para ver y escuchar.',
    };
  if (name === 'NotReadableError' || name === 'TrackStartError' || name === 'AbortError')
    return { kind: 'busy', message: 'La cámara o el micrófono están ocupados por otra aplicación. Ciérrala y pulsa «Reintentar».' };
  if (name === 'unsupported')
    return {
      kind: 'unsupported',
      message: 'Este navegador no permite videollamadas en esta página. Prueba con una versión reciente de Chrome, Firefox, Safari o Edge.',
    };
  return { kind: 'other', message: 'No hemos podido encender la cámara ni el micrófono. Pulsa «Reintentar».' };
}

const constraint = (id: string | undefined): boolean | MediaTrackConstraints => (id ? { deviceId: { exact: id } } : true);

/**
 * Camera and microphone together; when one of them is missing, whichever exists (a laptop without
 * a camera still talks). Throws what getUserMedia threw when neither can be had.
 */
export async function openMedia(choice: DeviceChoice): Promise<{ stream: MediaStream; partial: boolean }> {
  if (!navigator.mediaDevices?.getUserMedia) throw new DOMException('Sin mediaDevices', 'unsupported');
  const video = { ...(choice.videoId ? { deviceId: { exact: choice.videoId } } : {}), width: { ideal: 1280 }, height: { ideal: 720 } };
  try {
    return { stream: await navigator.mediaDevices.getUserMedia({ audio: constraint(choice.audioId), video }), partial: false };
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name !== 'NotFoundError' && name !== 'OverconstrainedError' && name !== 'NotReadableError') throw error;
    for (const one of [{ audio: constraint(choice.audioId) }, { video }]) {
      try {
        return { stream: await navigator.mediaDevices.getUserMedia(one), partial: true };
      } catch {
        // try the other one
      }
    }
    throw error;
  }
}

/** One kind again (another device chosen, or the camera turned back on). */
export async function openTrack(kind: 'audio' | 'video', deviceId: string | undefined): Promise<MediaStreamTrack> {
  const stream = await navigator.mediaDevices.getUserMedia(
    kind === 'audio' ? { audio: constraint(deviceId) } : { video: constraint(deviceId) },
  );
  return stream.getTracks()[0]!;
}

export type DeviceLists = { audio: MediaDeviceInfo[]; video: MediaDeviceInfo[] };

/** The cameras and microphones the page may name (labels appear once permission is given). */
export async function listDevices(): Promise<DeviceLists> {
  if (!navigator.mediaDevices?.enumerateDevices) return { audio: [], video: [] };
  const all = await navigator.mediaDevices.enumerateDevices();
  return {
    audio: all.filter((d) => d.kind === 'audioinput' && d.deviceId),
    video: all.filter((d) => d.kind === 'videoinput' && d.deviceId),
  };
}
