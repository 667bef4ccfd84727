import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../../test/test-app';
import { signUpConfirmed } from '../../test/auth-flows';
import { connectSocket } from '../../test/ws-client';
import { inProcessBroker, parseBrokerMessage, redisBroker, type BrokerMessage } from './broker';

/**
 * Issue 24: no handler's failure ends the process. Each boundary of the sockets (a feature's client
 * event, a greeting of an authenticated socket, the listeners of broker messages, the broker's own
 * subscribers) catches what its handler throws or rejects and logs it at error level by name; the
 * socket, the other sockets and the process carry on.
 */
type LogLine = { level: number; msg: string; handler?: string };
const lines: LogLine[] = [];
const errorsOf = (handler: string) => lines.filter((l) => l.level === 50 && l.handler === handler);
const recordingLog = () => {
  const errors: { handler?: string; msg: string }[] = [];
  return { errors, error: (obj: object, msg: string) => void errors.push({ handler: (obj as { handler?: string }).handler, msg }) };
};
/** Waits for a condition (log lines are written as the handlers fail, after the frame that caused them). */
async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 250 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  if (!check()) throw new Error(`not met: ${what}`);
}

let t: TestApp;
let base: string;
let me: Awaited<ReturnType<typeof signUpConfirmed>>;
const authenticated = async (token: string) => {
  const ws = await connectSocket(base);
  ws.send('authenticate', { token, realm: 'therapists' });
  await ws.next('authenticated');
  return ws;
};
beforeAll(async () => {
  t = await createTestApp(
    { logLevel: 'error' },
    { logger: true, logStream: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) } },
  );
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  me = await signUpConfirmed(t, 'limites@example.com', 'Límite');
});
afterAll(() => t?.close());

describe('the app socket’s handlers', () => {
  it('logs a client-event handler that throws or rejects; the socket and another user’s socket carry on', async () => {
    const realtime = t.app.services.realtime;
    realtime.onClientEvent('chat-typing', () => {
      throw new TypeError("Cannot read properties of null (reading 'event')");
    });
    realtime.onClientEvent('chat-typing', async () => Promise.reject(new Error('rechazado')));
    const other = await signUpConfirmed(t, 'otra@example.com', 'Otra');
    const bystander = await authenticated(other.accessToken);
    const ws = await authenticated(me.accessToken);
    ws.send('chat-typing', { patientFileId: randomUUID() });
    await until(() => errorsOf('realtime: handler of client event chat-typing').length === 2, 'both failures logged');
    ws.send('ping');
    await ws.next('pong');
    await t.patch('/api/v1/me', { lastName: 'Aquí' }, { token: other.accessToken });
    expect((await bystander.next('profile-updated')).data).toMatchObject({ lastName: 'Aquí' });
    ws.close();
    bystander.close();
  });

  it('logs a greeting that throws; the socket is authenticated and served all the same', async () => {
    t.app.services.realtime.onAuthenticated(() => {
      throw new Error('saludo roto');
    });
    const ws = await authenticated(me.accessToken);
    await until(() => errorsOf('realtime: greeting of an authenticated socket').length === 1, 'greeting failure logged');
    await t.patch('/api/v1/me', { lastName: 'Saludada' }, { token: me.accessToken });
    expect((await ws.next('profile-updated')).data).toMatchObject({ lastName: 'Saludada' });
    ws.close();
  });

  it('logs a broker listener that throws, and a relay message the video room cannot read; the other listeners still get theirs', async () => {
    const realtime = t.app.services.realtime;
    const heard: string[] = [];
    realtime.onServerEvent('prueba', () => {
      throw new Error('oyente roto');
    });
    realtime.onServerEvent('prueba', (key) => void heard.push(key));
    realtime.onUserEvent(() => {
      throw new Error('oyente de usuario roto');
    });
    await expect(realtime.toServers('prueba', 'clave')).resolves.toBeUndefined();
    expect(heard).toEqual(['clave']);
    expect(errorsOf('realtime: listener of server topic prueba')).toHaveLength(1);
    // The video room's relay fed something that is no message of its own (a bug, another version).
    await expect(realtime.relay('meet', null)).resolves.toBeUndefined();
    expect(errorsOf('realtime: listener of relay channel meet')).toHaveLength(1);
    const ws = await authenticated(me.accessToken);
    await t.patch('/api/v1/me', { lastName: 'Oída' }, { token: me.accessToken });
    expect((await ws.next('profile-updated')).data).toMatchObject({ lastName: 'Oída' });
    expect(errorsOf('realtime: listener of user events').length).toBeGreaterThan(0);
    ws.close();
  });
});

describe('the broker', () => {
  it('keeps a subscriber’s throw from the publisher and the other subscribers, and logs it', async () => {
    const log = recordingLog();
    const broker = inProcessBroker(log);
    const got: BrokerMessage[] = [];
    await broker.subscribe(() => {
      throw new Error('suscriptor roto');
    });
    await broker.subscribe((m) => void got.push(m));
    await expect(broker.publish({ kind: 'server', topic: 'x', key: 'k' })).resolves.toBeUndefined();
    expect(got).toEqual([{ kind: 'server', topic: 'x', key: 'k' }]);
    expect(log.errors).toEqual([{ handler: 'broker: subscriber of server messages', msg: 'broker: subscriber of server messages failed' }]);
  });

  it('reads only messages of its own shape from Redis', () => {
    for (const junk of [
      'null',
      '0',
      '"x"',
      '[]',
      '{}',
      'no es json',
      '{"kind":"user"}',
      '{"kind":"user","userId":1,"event":"x"}',
      '{"kind":"nope","key":"k"}',
      '{"kind":"server","topic":"t"}',
    ])
      expect(parseBrokerMessage(junk), junk).toBeNull();
    expect(parseBrokerMessage('{"kind":"user","userId":"u","event":"profile-updated","data":{"a":1}}')).toEqual({
      kind: 'user',
      userId: 'u',
      event: 'profile-updated',
      data: { a: 1 },
    });
    expect(parseBrokerMessage('{"kind":"relay","channel":"meet","data":null}')).toEqual({ kind: 'relay', channel: 'meet', data: null });
  });

  const redisUrl = process.env.REDIS_URL;
  it.skipIf(!redisUrl)('drops and logs what another process wrote that is no message; the next one still arrives', async () => {
    const log = recordingLog();
    const broker = await redisBroker(redisUrl!, log);
    const { Redis } = await import('ioredis');
    const raw = new Redis(redisUrl!);
    try {
      const got: BrokerMessage[] = [];
      const topic = `prueba-${randomUUID()}`;
      await broker.subscribe((m) => void (m.kind === 'server' && m.topic === topic && got.push(m)));
      for (const junk of ['null', 'no es json', '{"kind":"user"}']) await raw.publish('divan:realtime', junk);
      await broker.publish({ kind: 'server', topic, key: 'k' });
      await until(() => got.length === 1, 'the valid message delivered');
      expect(log.errors.filter((e) => e.msg === 'broker: malformed message from Redis dropped')).toHaveLength(3);
    } finally {
      raw.disconnect();
      await broker.close();
    }
  });
});
