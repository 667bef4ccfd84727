import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ChatMessage, ChatMessagesPage } from '@divan/core';
import { connectSocket } from '../../test/ws-client';
import { startServerProcess, type ServerProcess } from '../../test/server-process';
import { createPostgresDatabase } from '../../test/test-app';

const redisUrl = process.env.REDIS_URL;
if (!redisUrl && process.env.CI === 'true') throw new Error('REDIS_URL is required under CI: the chat across processes must be tested');
const servers: ServerProcess[] = [];
const dirs: string[] = [];
let dropDb: (() => Promise<void>) | undefined;
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await dropDb?.();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const device = {
  appVersion: '1.0.0',
  deviceManufacturer: 'unknown',
  deviceModel: 'unknown',
  platformType: 'web',
  platformVersion: '1.0.0',
};
const call = async <T>(url: string, token: string, body?: unknown): Promise<T> => {
  const res = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};

describe.skipIf(!redisUrl)('chat across two server processes sharing Redis', () => {
  it('a message sent through A reaches a socket on B; a socket offline for three messages catches up from its cursor, once', async () => {
    console.log('chat-redis: using', redisUrl);
    const appSecret = randomBytes(32).toString('hex');
    const pgDb = process.env.TEST_DATABASE_URL ? await createPostgresDatabase(process.env.TEST_DATABASE_URL) : undefined;
    dropDb = pgDb?.drop;
    const shared = {
      REDIS_URL: redisUrl!,
      APP_SECRET: appSecret,
      CLINICAL_KEY: randomBytes(32).toString('base64'),
      AUTH_RATE_LIMIT_IP: '100000',
      AUTH_RATE_LIMIT_EMAIL: '100000',
      ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    };
    for (let i = 0; i < 2; i++) {
      // On one PostgreSQL database the processes share one DATA_DIR, as an installation must (its files).
      const dir = pgDb && dirs[0] ? dirs[0] : mkdtempSync(join(tmpdir(), 'divan-chat-'));
      if (!dirs.includes(dir)) dirs.push(dir);
      servers.push(await startServerProcess({ ...shared, DATA_DIR: dir }));
    }
    const [a, b] = servers as [ServerProcess, ServerProcess];
    // A therapist signed up on A (their own practice); B accepts A's tokens (same APP_SECRET).
    const email = `chat-${Date.now()}@example.com`;
    const signup = await fetch(`${a.url}/api/v1/realms/therapists/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Nuria', email, password: 'Consulta2026' }),
    });
    expect(signup.status).toBe(201);
    const mails = (await (await fetch(`${a.url}/dev/mail/messages?to=${email}`)).json()) as { text: string }[];
    const code = mails[0]!.text.match(/verify-email\/([\w-]+)/)![1];
    const { accessToken: token } = (await (
      await fetch(`${a.url}/api/v1/realms/therapists/signup/challenge`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code, ...device }),
      })
    ).json()) as { accessToken: string };
    const [workspace] = await call<{ id: string }[]>(`${a.url}/api/v1/workspaces`, token);
    const patient = await call<{ id: string }>(`${a.url}/api/v1/workspaces/${workspace!.id}/patients`, token, {
      firstName: 'Irene',
      lastName: 'Campos',
    });
    const M = `${a.url}/api/v1/workspaces/${workspace!.id}/chats/${patient.id}/messages`;

    const connectB = async () => {
      const s = await connectSocket(b.url);
      s.send('authenticate', { token, realm: 'therapists' });
      await s.next('authenticated');
      return s;
    };
    // The sender's other device, on B, hears the message sent through A.
    let onB = await connectB();
    const first = await call<ChatMessage>(M, token, { body: 'Primero' });
    const live = (await onB.next('chat-message', 10_000)).data as { patientFileId: string; message: ChatMessage };
    expect(live).toMatchObject({ patientFileId: patient.id, message: { id: first.id, body: 'Primero' } });
    const cursor = live.message.cursor;

    // Offline during three messages.
    onB.close();
    for (const body of ['Dos', 'Tres', 'Cuatro']) await call<ChatMessage>(M, token, { body });
    onB = await connectB();
    const caughtUp = await call<ChatMessagesPage>(`${M}?after=${cursor}`, token);
    expect(caughtUp.items.map((m) => m.body)).toEqual(['Dos', 'Tres', 'Cuatro']);
    expect(caughtUp.next).toBeNull();
    // Once: the reconnected socket is not sent them again, and the next catch-up from the last cursor is empty.
    await expect(onB.next('chat-message', 500)).rejects.toThrow();
    expect((await call<ChatMessagesPage>(`${M}?after=${caughtUp.items[2]!.cursor}`, token)).items).toEqual([]);
    onB.close();
  }, 120_000);
});
