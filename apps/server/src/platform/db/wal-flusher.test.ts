import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WalFlusher } from './wal-flusher';

const dirs: string[] = [];
function pgdata(segments: number) {
  const dir = mkdtempSync(join(tmpdir(), 'divan-wal-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'pg_wal'));
  for (let i = 0; i < segments; i++) writeFileSync(join(dir, 'pg_wal', `00000001000000000000000${i}`), 'x'.repeat(4096));
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('WalFlusher', () => {
  it('syncs the segments off the event loop: other work runs while a pass is under way', async () => {
    const flusher = new WalFlusher(pgdata(3));
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    await flusher.pass();
    // A pass on the main thread would have ended (and this line run) before the loop's next turn.
    expect(turned).toBe(true);
  });

  it('never runs two passes at once: a pass asked for during one is that one', async () => {
    const flusher = new WalFlusher(pgdata(2));
    const first = flusher.pass();
    expect(flusher.pass()).toBe(first);
    await first;
    expect(flusher.pass()).not.toBe(first);
  });

  it('a data directory gone is nothing to flush, periodic or at shutdown', async () => {
    const dir = pgdata(1);
    const flusher = new WalFlusher(dir, 10);
    flusher.start();
    rmSync(dir, { recursive: true, force: true });
    await expect(flusher.pass()).resolves.toBeUndefined();
    expect(() => flusher.stop()).not.toThrow();
  });
});
