import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_INVALID_FRAME_LIMIT, errorMessage } from '@divan/core';
import { AUTH, createTestApp, type TestApp } from '../../test/test-app';
import { signIn, signUpConfirmed } from '../../test/auth-flows';
import { connectSocket } from '../../test/ws-client';

let t: TestApp;
let base: string;
let tokens: { accessToken: string; refreshToken: string };
beforeAll(async () => {
  t = await createTestApp({}, { realtime: { heartbeatMs: 150, authTimeoutMs: 400, maxPerUser: 2 } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  tokens = await signUpConfirmed(t, 'rocio@example.com', 'Rocío');
});
afterAll(() => t?.close());

describe('realtime websocket', () => {
  it('authenticates, answers ping with pong and delivers the user events', async () => {
    const ws = await connectSocket(base);
    ws.send('authenticate', { token: tokens.accessToken, realm: 'therapists' });
    await ws.next('authenticated');
    ws.send('ping');
    await ws.next('pong');
    await ws.next('ping'); // server heartbeat
    ws.send('pong');
    await t.patch('/api/v1/me', { lastName: 'Vega' }, { token: tokens.accessToken });
    const frame = await ws.next('profile-updated');
    expect(frame.data).toMatchObject({ lastName: 'Vega' });
    ws.close();
  });

  it('disconnects an invalid token or realm with invalid_access_token', async () => {
    for (const data of [
      { token: 'nope', realm: 'therapists' },
      { token: tokens.accessToken, realm: 'patients' },
    ]) {
      const ws = await connectSocket(base);
      ws.send('authenticate', data);
      expect((await ws.next('disconnect')).data).toEqual({ code: 'invalid_access_token' });
      expect(await ws.closedWith()).toBeTruthy();
    }
  });

  it('closes a socket that never authenticates with timeout', async () => {
    const ws = await connectSocket(base);
    expect((await ws.next('disconnect')).data).toEqual({ code: 'timeout' });
  });

  it('refuses sockets beyond the per-user maximum with max_sessions_reached', async () => {
    const open = [];
    for (let i = 0; i < 2; i++) {
      const ws = await connectSocket(base);
      ws.send('authenticate', { token: tokens.accessToken, realm: 'therapists' });
      await ws.next('authenticated');
      open.push(ws);
    }
    const extra = await connectSocket(base);
    extra.send('authenticate', { token: tokens.accessToken, realm: 'therapists' });
    expect((await extra.next('disconnect')).data).toEqual({ code: 'max_sessions_reached' });
    open.forEach((ws) => ws.close());
  });

  it('ends the sockets of a device that signs out', async () => {
    const s = await signIn(t, 'rocio@example.com');
    const ws = await connectSocket(base);
    ws.send('authenticate', { token: s.accessToken, realm: 'therapists' });
    await ws.next('authenticated');
    await t.del(`${AUTH}/sessions`, { token: s.refreshToken });
    expect((await ws.next('disconnect')).data).toEqual({ code: 'session_not_found' });
  });

  it('refuses a bad frame in Spanish and stays open; closes a socket that sends more than 20 in a minute', async () => {
    const ws = await connectSocket(base);
    ws.raw('null');
    expect((await ws.next('error')).data).toEqual({ code: 'socket_frame_invalid', message: errorMessage('socket_frame_invalid') });
    ws.send('ping');
    await ws.next('pong');
    for (let i = 0; i < SOCKET_INVALID_FRAME_LIMIT; i++) ws.raw('null');
    expect((await ws.next('disconnect')).data).toEqual({ code: 'socket_too_many_invalid_frames' });
    expect((await ws.closedWith())?.code).toBe(4000);
    expect(ws.taken('error')).toHaveLength(SOCKET_INVALID_FRAME_LIMIT - 1);
  });

  it('drops a socket that stops answering the heartbeat', async () => {
    const ws = await connectSocket(base);
    ws.send('authenticate', { token: tokens.accessToken, realm: 'therapists' });
    await ws.next('authenticated');
    // Never answer: after two silent heartbeats the server terminates it.
    expect(await ws.closedWith(3000)).toBeTruthy();
  });
});
