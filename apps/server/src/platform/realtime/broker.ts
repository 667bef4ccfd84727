import { EventEmitter } from 'node:events';
import type { Redis as RedisClient } from 'ioredis';

/**
 * What crosses processes: an event for a user's sockets, the end of a device session, a note
 * between server processes (no socket sees it), e.g. that a cache must be dropped, or a domain event
 * for the other processes' handlers (platform/events; `origin` is the emitting EventBus), or a
 * feature's own message to its peers in every process (`relay`, e.g. the video room's signalling).
 */
export type BrokerMessage =
  | { kind: 'user'; userId: string; event: string; data?: unknown }
  | { kind: 'session-ended'; sessionId: string; code: string }
  | { kind: 'server'; topic: string; key: string }
  | { kind: 'event'; name: string; payload: unknown; origin: string }
  | { kind: 'relay'; channel: string; data: unknown };

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
  // Realtime and the EventBus both subscribe, and publish concurrently: connect and subscribe once.
  let connected: Promise<void> | undefined;
  let subscribed: Promise<unknown> | undefined;
  const handlers: ((message: BrokerMessage) => void)[] = [];
  return {
    async publish(message) {
      if (pub.status === 'wait') await (connected ??= pub.connect());
      await pub.publish(CHANNEL, JSON.stringify(message));
    },
    async subscribe(handler) {
      handlers.push(handler);
      subscribed ??= (async () => {
        if (sub.status === 'wait') await sub.connect();
        sub.on('message', (channel, payload) => {
          if (channel !== CHANNEL) return;
          let message: BrokerMessage;
          try {
            message = JSON.parse(payload) as BrokerMessage;
          } catch {
            return; // A malformed message from another process is dropped, not fatal.
          }
          for (const h of handlers) {
            try {
              h(message);
            } catch {
              // One subscriber's failure does not keep the message from the others.
            }
          }
        });
        await sub.subscribe(CHANNEL);
      })();
      await subscribed;
    },
    async close() {
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
