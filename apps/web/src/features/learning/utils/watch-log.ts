import { mergeWatched, type WatchedIntervals } from '@divan/core';

/** A step between two time updates longer than this is a jump (a seek, a resume), not watching. */
export const STEP_MAX_SECONDS = 1.5;
/** What the contract takes per save. */
const STRETCHES_MAX = 200;
const POSITION_MAX = 100_000;

/**
 * The stretches of a video actually played since the last save. Time counts only from one time update to
 * the next while playing and not seeking, in small forward steps: a jump to the end is a position, never
 * watched time (the server checks it too).
 */
export class WatchLog {
  private done: WatchedIntervals = [];
  private from: number | null = null;
  private at: number | null = null;

  /** A time update while playing. */
  tick(t: number): void {
    if (this.at !== null && t > this.at && t - this.at < STEP_MAX_SECONDS) {
      this.at = t;
      return;
    }
    this.cut();
    this.from = t;
    this.at = t;
  }

  /** Seeking, pausing, the end, a new source: the open stretch ends where it was. */
  cut(): void {
    if (this.from !== null && this.at !== null && this.at > this.from) this.done.push([this.from, this.at]);
    this.from = null;
    this.at = null;
  }

  /** What to send now (the open stretch up to its last update, which goes on from there); forgotten here. */
  take(): WatchedIntervals {
    const open: WatchedIntervals = this.from !== null && this.at !== null && this.at > this.from ? [[this.from, this.at]] : [];
    const out = mergeWatched(this.done, open, POSITION_MAX).slice(-STRETCHES_MAX);
    this.done = [];
    if (this.at !== null) this.from = this.at;
    return out;
  }

  /** A save that failed: its stretches go with the next one. */
  giveBack(stretches: WatchedIntervals): void {
    this.done.push(...stretches);
  }
}
