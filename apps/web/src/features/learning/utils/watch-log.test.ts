import { describe, expect, it } from 'vitest';
import { WatchLog } from './watch-log';

const play = (log: WatchLog, from: number, to: number, step = 0.25) => {
  for (let t = from; t <= to + 1e-9; t += step) log.tick(Math.round(t * 100) / 100);
};

describe('WatchLog', () => {
  it('counts only the time really played, in small steps', () => {
    const log = new WatchLog();
    play(log, 10, 20);
    expect(log.take()).toEqual([[10, 20]]);
  });

  it('a jump (a seek to the end, a resume) is a position, not watched time', () => {
    const log = new WatchLog();
    play(log, 0, 5);
    log.tick(1700); // dragged to the end: no seeking event seen, but a step of minutes
    play(log, 1700.25, 1702);
    expect(log.take()).toEqual([
      [0, 5],
      [1700, 1702],
    ]);
  });

  it('seeking and pausing close the stretch; what was sent is not sent again', () => {
    const log = new WatchLog();
    play(log, 0, 3);
    log.cut();
    play(log, 60, 62);
    expect(log.take()).toEqual([
      [0, 3],
      [60, 62],
    ]);
    // Still playing: the next save starts where this one ended.
    play(log, 62.25, 64);
    expect(log.take()).toEqual([[62, 64]]);
    expect(log.take()).toEqual([]);
  });

  it('a failed save gives its stretches back for the next one', () => {
    const log = new WatchLog();
    play(log, 0, 4);
    log.cut();
    const sent = log.take();
    log.giveBack(sent);
    play(log, 4.25, 6);
    log.cut();
    expect(log.take()).toEqual([
      [0, 4],
      [4.3, 6],
    ]);
  });
});
