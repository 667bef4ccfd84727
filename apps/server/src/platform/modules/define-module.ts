import type { FastifyInstance } from 'fastify';
import type { DomainEventName, SocketEventName } from '@divan/core';
import type { EventBus, EventHandler, HandlerScope } from '../events/event-bus';
import type { QueueDefinition } from '../jobs/jobs';
import type { Platform } from './platform';

/**
 * What the modules provide to each other, by name: each `<module>.module.ts` adds its own entries with
 * `declare module '…/platform/modules/define-module' { interface Provided { … } }`, beside its entry.
 * A module's `build` receives only the entries it names in `needs` (constructor injection, no locator).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Provided {}

/** A domain event handler a module adds (registered in module order, so an earlier module's runs first). */
export type Handler = { [N in DomainEventName]: { event: N; scope: HandlerScope; run: EventHandler<N> } }[DomainEventName];
export const handle = <N extends DomainEventName>(event: N, scope: HandlerScope, run: EventHandler<N>) =>
  ({ event, scope, run }) as unknown as Handler;
/** Registers a declared handler on the bus. */
export const listen = (events: EventBus, h: Handler) =>
  events.on(h.event as DomainEventName, h.run as EventHandler<DomainEventName>, { scope: h.scope });

/** What a module's `build` gives back: what it offers, and what it adds to the app. */
export type Built<P> = {
  provides: P;
  /** Its HTTP routes (and sockets' upgrade routes), registered once every module is built. */
  routes?: (app: FastifyInstance) => Promise<unknown> | unknown;
  /** Queues it works (defined before the jobs start); each queue's payload type is its own. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  jobs?: QueueDefinition<any>[];
  /** Bounded clean-ups run by the hourly sweep job, by name (Jobs.sweep). */
  sweeps?: Record<string, () => Promise<number>>;
  /** Its handlers of other modules' (or its own) domain events. */
  on?: Handler[];
  /** The domain events it emits that reach the members' sockets (core's SOCKET_EVENTS). */
  sockets?: readonly SocketEventName[];
  /** After the platform started (jobs, realtime): catch-ups, its own sockets. */
  start?: () => Promise<unknown> | unknown;
  /** At close, before the database closes. */
  stop?: () => Promise<unknown> | unknown;
};

/** A lazily read port: filled by a later module in the list (a cycle closed in module order), read only at use. */
export type Later<T> = () => T;

export type ModuleEntry<N extends keyof Provided, L extends keyof Provided, P extends Partial<Provided>> = {
  name: string;
  /** Entries of earlier modules, given to `build`. */
  needs: readonly N[];
  /** Entries of later modules (closing a cycle), given to `build` as getters to read at use, never while building. */
  later?: readonly L[];
  build: (needs: { [K in N]: Provided[K] } & { [K in L]: Later<Provided[K]> }, platform: Platform) => Built<P> | Promise<Built<P>>;
};

/** A module's one front door: its name, what it needs (and from later modules), and how it is built. */
export const defineModule = <N extends keyof Provided, P extends Partial<Provided>, L extends keyof Provided = never>(
  m: ModuleEntry<N, L, P>,
): AnyModule => m as unknown as AnyModule;

export type AnyModule = ModuleEntry<keyof Provided, keyof Provided, Partial<Provided>>;
