import { EventEmitter } from 'node:events';
import type { Redis as RedisClient } from 'ioredis';
import { z } from 'zod';
import { guard, type BoundaryLog } from '../boundary';

/**
 * What crosses processes: an event for a user's sockets, the end of a device session, a note
 * between server processes (no socket sees it), e.g. that a cache must be dropped, or a domain event
 * for the other processes' handlers (platform/events; `origin` is the emitting EventBus), or a
 * feature's own message to its peers in every process (`relay`, e.g. the video room's signalling).
 */
const brokerMessage = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), userId: z.string(), event: z.string(), data: z.unknown() }),
  z.object({ kind: z.literal('session-ended'), sessionId: z.string(), code: z.string() }),
  z.object({ kind: z.literal('server'), topic: z.string(), key: z.string() }),
  z.object({ kind: z.literal('event'), name: z.string(), payload: z.unknown(), origin: z.string() }),
  z.object({ kind: z.literal('relay'), channel: z.string(), data: z.unknown() }),
]);
export type BrokerMessage = z.infer<typeof brokerMessage>;

export type Broker = {
  publish(message: BrokerMessage): Promise<void>;
  subscribe(handler: (message: BrokerMessage) => void): Promise<void>;
  close(): Promise<void>;
};

/** Without a logger (a test's broker), a subscriber's failure is still kept from the publisher and the others. */
const silent: BoundaryLog = { error: () => undefined };

/** One process: a publish reaches this process's subscribers; one that throws is logged, and the others still get it. */
export function inProcessBroker(log: BoundaryLog = silent): Broker {
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  return {
    async publish(message) {
      bus.emit('message', message);
    },
    async subscribe(handler) {
      bus.on('message', (message: BrokerMessage) => guard(log, `broker: subscriber of ${message.kind} messages`, () => handler(message)));
    },
    async close() {
      bus.removeAllListeners();
    },
  };
}

const CHANNEL = 'divan:realtime';

/**
 * Redis pub/sub: every server process gets every message and delivers it to its own sockets.
 * ioredis (~12 MB) is loaded only when REDIS_URL is set. What arrives is checked: a message that is not
 * one of ours (another version, anyone with access to Redis) is logged and dropped.
 */
export async function redisBroker(url: string, log: BoundaryLog = silent): Promise<Broker> {
  const { Redis } = await import('ioredis');
  const pub: RedisClient = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const sub: RedisClient = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  // Realtime and the EventBus both subscribe, and publish concurrently: connect and subscribe once.
  let connected: Promise<void> | undefined;
  let subscribed: Promise<unknown> | undefined;
  const handlers: ((message: BrokerMessage) => void)[] = [];
  const receive = (payload: string) => {
    const message = parseBrokerMessage(payload);
    if (!message) return log.error({ payload: payload.slice(0, 200) }, 'broker: malformed message from Redis dropped');
    for (const h of handlers) guard(log, `broker: subscriber of ${message.kind} messages`, () => h(message));
  };
  return {
    async publish(message) {
      if (pub.status === 'wait') await (connected ??= pub.connect());
      await pub.publish(CHANNEL, JSON.stringify(message));
    },
    async subscribe(handler) {
      handlers.push(handler);
      subscribed ??= (async () => {
        if (sub.status === 'wait') await sub.connect();
        sub.on('message', (channel: string, payload: string) => {
          if (channel === CHANNEL) guard(log, 'broker: Redis message', () => receive(payload));
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

/** A message as another process wrote it, or null when it is not one (not JSON, not of this shape). */
export function parseBrokerMessage(payload: string): BrokerMessage | null {
  try {
    const parsed = brokerMessage.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
