import { EventEmitter } from 'node:events';
import type { Redis as RedisClient } from 'ioredis';

/**
 * What crosses processes: an event for a user's sockets, the end of a device session, or a note
 * between server processes (no socket sees it), e.g. that a cache must be dropped.
 */
export type BrokerMessage =
  | { kind: 'user'; userId: string; event: string; data?: unknown }
  | { kind: 'session-ended'; sessionId: string; code: string }
  | { kind: 'server'; topic: string; key: string };

export type Broker = {
  publish(message: BrokerMessage): Promise<void>;
  subscribe(handler: (message: BrokerMessage) => void): Promise<void>;
  close(): Promise<void>;
};

export function inProcessBroker(): Broker {
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  return {
    async publish(message) {
      bus.emit('message', message);
    },
    async subscribe(handler) {
      bus.on('message', handler);
    },
    async close() {
      bus.removeAllListeners();
    },
  };
}

const CHANNEL = 'divan:realtime';

/**
 * Redis pub/sub: every server process gets every message and delivers it to its own sockets.
 * ioredis (~12 MB) is loaded only when REDIS_URL is set.
 */
export async function redisBroker(url: string): Promise<Broker> {
  const { Redis } = await import('ioredis');
  const pub: RedisClient = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const sub: RedisClient = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  return {
    async publish(message) {
      if (pub.status === 'wait') await pub.connect();
      await pub.publish(CHANNEL, JSON.stringify(message));
    },
    async subscribe(handler) {
      if (sub.status === 'wait') await sub.connect();
      sub.on('message', (channel, payload) => {
        if (channel !== CHANNEL) return;
        try {
          handler(JSON.parse(payload) as BrokerMessage);
        } catch {
          // A malformed message from another process is dropped, not fatal.
        }
      });
      await sub.subscribe(CHANNEL);
    },
    async close() {
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
