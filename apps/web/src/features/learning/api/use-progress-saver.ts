import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { LEARNING_PROGRESS_SAVE_MS, type LearningProgressBody } from '@divan/core';
import { WatchLog } from '../utils/watch-log';
import { learningKeys } from './keys';
import { refreshLearningLists, saveProgress, saveProgressOnLeave } from './learning-api';

/** What a player tells the saver; the same for the native <video> and Vimeo's. */
export type PlaybackEvents = {
  /** A time update; `playing` false while paused or seeking (the position moves, nothing is watched). */
  time: (seconds: number, playing: boolean) => void;
  seeking: () => void;
  play: () => void;
  pause: (seconds: number) => void;
  /** Vimeo's duration, sent with each save (a file's is the server's own). */
  duration: (seconds: number) => void;
};

const tenth = (n: number) => Math.round(n * 10) / 10;

/**
 * The buyer's progress: saved every LEARNING_PROGRESS_SAVE_MS while playing, on pause and at the end, and
 * as the page goes (keepalive on `pagehide` or a hidden tab, a plain save on unmount). Off for the preview.
 */
export function useProgressSaver(videoId: string, enabled: boolean): PlaybackEvents {
  const qc = useQueryClient();
  const [log] = useState(() => new WatchLog());
  const at = useRef({ position: 0, saved: -1, duration: undefined as number | undefined });
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);

  /** The next body, or null when nothing changed since the last save. */
  const next = useCallback((): LearningProgressBody | null => {
    const watched = log.take();
    const { position, saved, duration } = at.current;
    if (!watched.length && Math.abs(position - saved) < 1) return null;
    at.current.saved = position;
    return { positionSeconds: tenth(position), watched, ...(duration ? { durationSeconds: tenth(duration) } : {}) };
  }, [log]);

  const save = useCallback(async () => {
    const body = enabled ? next() : null;
    if (!body) return;
    try {
      const progress = await saveProgress(videoId, body);
      qc.setQueriesData({ queryKey: learningKeys.video(videoId) }, (v: object | undefined) => (v ? { ...v, progress } : v));
    } catch {
      // Sent with the next save instead.
      log.giveBack(body.watched ?? []);
      at.current.saved = -1;
    }
  }, [enabled, log, next, qc, videoId]);

  const stop = () => {
    if (timer.current) clearInterval(timer.current);
    timer.current = null;
  };

  useEffect(() => {
    if (!enabled) return;
    // Not a cut: a tab hidden while playing goes on, and the next save starts where this one ended.
    const leave = () => {
      const body = next();
      if (body) saveProgressOnLeave(videoId, body);
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') leave();
    };
    window.addEventListener('pagehide', leave);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', leave);
      document.removeEventListener('visibilitychange', onVisibility);
      stop();
      log.cut();
      // The shelves and «Continuar viendo» show where it was left.
      void save().finally(() => refreshLearningLists(qc));
    };
  }, [enabled, log, next, qc, save, videoId]);

  return useMemo(
    () => ({
      time: (seconds, playing) => {
        at.current.position = seconds;
        if (playing) log.tick(seconds);
      },
      seeking: () => log.cut(),
      play: () => {
        stop();
        timer.current = setInterval(() => void save(), LEARNING_PROGRESS_SAVE_MS);
      },
      pause: (seconds) => {
        at.current.position = seconds;
        log.cut();
        stop();
        void save();
      },
      duration: (seconds) => {
        if (seconds > 0) at.current.duration = seconds;
      },
    }),
    [log, save],
  );
}
