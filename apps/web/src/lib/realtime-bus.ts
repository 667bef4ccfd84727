import type { RealtimeFrame } from '@divan/core';
import type { RealtimeStatus } from './realtime';

type FrameListener = (frame: RealtimeFrame) => void;
type StatusListener = (status: RealtimeStatus) => void;

/**
 * The shell's one socket, seen by the features: they listen to its events and its status (a feature
 * that shows live data catches up when it is `connected` again) and send their own events through it.
 * The shell (app/hooks/use-realtime) publishes here; nothing here knows any feature.
 */
class RealtimeBus {
  private frames = new Set<FrameListener>();
  private statuses = new Set<StatusListener>();
  private sender: ((event: string, data?: unknown) => void) | null = null;
  status: RealtimeStatus = 'stopped';

  onFrame(listener: FrameListener): () => void {
    this.frames.add(listener);
    return () => void this.frames.delete(listener);
  }

  onStatus(listener: StatusListener): () => void {
    this.statuses.add(listener);
    return () => void this.statuses.delete(listener);
  }

  publish(frame: RealtimeFrame): void {
    for (const l of [...this.frames]) l(frame);
  }

  publishStatus(status: RealtimeStatus): void {
    this.status = status;
    for (const l of [...this.statuses]) l(status);
  }

  /** Set by the shell while its socket exists. */
  setSender(send: ((event: string, data?: unknown) => void) | null): void {
    this.sender = send;
  }

  /** An event to the server; dropped when there is no socket (typing notices are best effort). */
  send(event: string, data?: unknown): void {
    this.sender?.(event, data);
  }
}

export const realtimeBus = new RealtimeBus();
