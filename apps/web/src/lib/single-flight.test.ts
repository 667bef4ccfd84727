import { describe, expect, it } from 'vitest';
import { singleFlight } from './single-flight';

describe('singleFlight', () => {
  it('shares one in-flight call between concurrent callers (one token refresh, not ten)', async () => {
    let calls = 0;
    const refresh = singleFlight(async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 10));
      return `token-${calls}`;
    });
    const results = await Promise.all(Array.from({ length: 10 }, () => refresh()));
    expect(calls).toBe(1);
    expect(new Set(results)).toEqual(new Set(['token-1']));
    // Once settled, the next caller starts a fresh call.
    expect(await refresh()).toBe('token-2');
  });
  it('lets the next call retry after a failure', async () => {
    let calls = 0;
    const flaky = singleFlight(async () => {
      calls++;
      if (calls === 1) throw new Error('network');
      return 'ok';
    });
    await expect(flaky()).rejects.toThrow('network');
    await expect(flaky()).resolves.toBe('ok');
  });
});
