import { afterAll, describe, expect, it } from 'vitest';
import type { ChatMessage, ChatMessagesPage } from '@divan/core';
import { authenticatedSocket } from '../../test/ws-client';
import { redisUrlRequiredUnderCi, serverProcessesSharingRedis, therapistOn } from '../../test/redis-fixtures';

const redisUrl = redisUrlRequiredUnderCi('the chat across processes');
const processes = serverProcessesSharingRedis('divan-chat-');
afterAll(() => processes.stop());

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
    const { a, b } = await processes.start(redisUrl!);
    // A therapist signed up on A (their own practice); B accepts A's tokens (same APP_SECRET).
    const token = await therapistOn(a, `chat-${Date.now()}@example.com`);
    const [workspace] = await call<{ id: string }[]>(`${a.url}/api/v1/workspaces`, token);
    const patient = await call<{ id: string }>(`${a.url}/api/v1/workspaces/${workspace!.id}/patients`, token, {
      firstName: 'Irene',
      lastName: 'Campos',
    });
    const M = `${a.url}/api/v1/workspaces/${workspace!.id}/chats/${patient.id}/messages`;

    const connectB = () => authenticatedSocket(b.url, token);
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
