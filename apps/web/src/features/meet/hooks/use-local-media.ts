import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { listDevices, mediaProblem, openMedia, openTrack, type DeviceChoice, type DeviceLists, type MediaProblem } from '../utils/media';

type Tracks = { audio: MediaStreamTrack | null; video: MediaStreamTrack | null };

/**
 * The camera and microphone of this page: asked for once, switchable by device, the microphone muted
 * in place (silence is sent) and the camera really turned off (its light goes out) and on again.
 */
export function useLocalMedia() {
  const [tracks, setTracks] = useState<Tracks>({ audio: null, video: null });
  const [problem, setProblem] = useState<MediaProblem | null>(null);
  const [pending, setPending] = useState(true);
  const [devices, setDevices] = useState<DeviceLists>({ audio: [], video: [] });
  const [choice, setChoice] = useState<DeviceChoice>({});
  const [micOn, setMicOn] = useState(true);
  /** The camera is on when it gives a track: off by the button, refused or missing alike. */
  const camOn = !!tracks.video;
  const current = useRef<Tracks>(tracks);
  current.current = tracks;
  const chosen = useRef<DeviceChoice>(choice);
  chosen.current = choice;

  const replace = useCallback((next: Partial<Tracks>) => {
    setTracks((prev) => {
      for (const kind of ['audio', 'video'] as const) if (kind in next && prev[kind] && prev[kind] !== next[kind]) prev[kind]!.stop();
      return { ...prev, ...next };
    });
  }, []);

  const open = useCallback(async () => {
    setPending(true);
    try {
      const { stream } = await openMedia(chosen.current);
      const audio = stream.getAudioTracks()[0] ?? null;
      const video = stream.getVideoTracks()[0] ?? null;
      replace({ audio, video });
      setMicOn(true);
      setProblem(null);
      setChoice({ audioId: audio?.getSettings().deviceId, videoId: video?.getSettings().deviceId });
    } catch (error) {
      setProblem(mediaProblem(error));
    } finally {
      setPending(false);
      setDevices(await listDevices().catch(() => ({ audio: [], video: [] })));
    }
  }, [replace]);

  useEffect(() => {
    void open();
    const changed = () => void listDevices().then(setDevices, () => undefined);
    navigator.mediaDevices?.addEventListener?.('devicechange', changed);
    return () => {
      navigator.mediaDevices?.removeEventListener?.('devicechange', changed);
      for (const t of [current.current.audio, current.current.video]) t?.stop();
    };
  }, [open]);

  useEffect(() => {
    if (tracks.audio) tracks.audio.enabled = micOn;
  }, [tracks.audio, micOn]);

  const choose = useCallback(
    async (kind: 'audio' | 'video', deviceId: string) => {
      setChoice((c) => ({ ...c, [kind === 'audio' ? 'audioId' : 'videoId']: deviceId }));
      if (kind === 'video' && !camOn) return; // used when the camera is turned back on
      try {
        replace({ [kind]: await openTrack(kind, deviceId) });
        setProblem(null);
      } catch (error) {
        setProblem(mediaProblem(error));
      }
    },
    [camOn, replace],
  );

  const toggleCamera = useCallback(async () => {
    if (camOn) return replace({ video: null });
    try {
      replace({ video: await openTrack('video', choice.videoId) });
      setProblem(null);
    } catch (error) {
      setProblem(mediaProblem(error));
    }
  }, [camOn, choice.videoId, replace]);

  const stop = useCallback(() => replace({ audio: null, video: null }), [replace]);
  const preview = useMemo(() => (tracks.video ? new MediaStream([tracks.video]) : null), [tracks.video]);

  return {
    tracks,
    preview,
    problem,
    pending,
    devices,
    choice,
    micOn,
    camOn,
    retry: open,
    choose,
    toggleMic: () => setMicOn((on) => !on),
    toggleCamera,
    stop,
  };
}
export type LocalMedia = ReturnType<typeof useLocalMedia>;
