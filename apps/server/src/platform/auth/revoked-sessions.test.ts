import { describe, expect, it } from 'vitest';
import { inProcessBroker } from '../realtime/broker';
import { RevokedSessions } from './revoked-sessions';
import { createTokenService } from './tokens';

describe('RevokedSessions', () => {
  it('refuses a session until its access tokens would have expired, then forgets it', () => {
    let now = 1_000_000;
    const set = new RevokedSessions(60_000, () => now);
    set.add('a');
    now += 30_000;
    set.add('b');
    expect([set.has('a'), set.has('b'), set.has('c')]).toEqual([true, true, false]);
    now += 30_001; // a's tokens are all expired
    expect([set.has('a'), set.has('b')]).toEqual([false, true]);
    now += 60_000;
    set.add('c'); // each add drops what has expired: the set stays small
    expect(set.size).toBe(1);
  });

  it('loads the recent revocations from the database, skipping those already harmless', () => {
    const now = 5_000_000;
    const set = new RevokedSessions(60_000, () => now);
    expect(set.loadSince).toEqual(new Date(now - 60_000));
    set.load([
      { id: 'recent', revokedAt: new Date(now - 10_000) },
      { id: 'old', revokedAt: new Date(now - 61_000) },
    ]);
    expect([set.has('recent'), set.has('old'), set.size]).toEqual([true, false, 1]);
  });

  it('hears revocations published by any process on the broker', async () => {
    const broker = inProcessBroker();
    const set = new RevokedSessions(60_000);
    await set.listen(broker);
    await broker.publish({ kind: 'session-ended', sessionId: 's1', code: 'session_not_found' });
    await broker.publish({ kind: 'server', topic: 'x', key: 's2' });
    expect([set.has('s1'), set.has('s2')]).toEqual([true, false]);
  });

  it('makes the token service refuse a valid access token of a revoked session', () => {
    const set = new RevokedSessions(60_000);
    const tokens = createTokenService('k'.repeat(32), set);
    const token = tokens.signAccess({ sub: 'u', sid: 's', realm: 'therapists' });
    expect(tokens.verifyAccess(token)).toEqual({ sub: 'u', sid: 's', realm: 'therapists' });
    set.add('s');
    expect(tokens.verifyAccess(token)).toBeNull();
  });
});
