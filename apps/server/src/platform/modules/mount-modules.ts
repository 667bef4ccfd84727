import type { FastifyInstance } from 'fastify';
import { SOCKET_EVENT_NAMES, type SocketEventName } from '@divan/core';
import { listen, type AnyModule, type Built, type Provided } from './define-module';
import type { Platform } from './platform';

/** The modules, built in their order: what they provide, and their routes, start and stop to run in that order. */
export type Mounted = {
  provided: Partial<Provided>;
  /** Every module's bridged events, together exactly core's SOCKET_EVENTS. */
  sockets: SocketEventName[];
  /** Every module's routes, or only those of the modules `only` names (a worker process: the health routes). */
  routes(app: FastifyInstance, only?: readonly string[]): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * Builds each module with what it names of the earlier ones, then adds its jobs, sweeps and event
 * handlers (before the next module is built, so handlers run in module order). A need no earlier module
 * provides, an entry provided twice, a later port never filled or a bridged event no module (or two)
 * claims stops the start-up with the module's name.
 */
export async function mountModules(platform: Platform, modules: readonly AnyModule[]): Promise<Mounted> {
  const provided: Record<string, unknown> = {};
  const built: { name: string; b: Built<Partial<Provided>> }[] = [];
  for (const m of modules) {
    const needs: Record<string, unknown> = {};
    for (const k of m.needs) {
      if (!(k in provided)) throw new Error(`module ${m.name} needs ${String(k)}, which no module before it provides`);
      needs[k] = provided[k];
    }
    for (const k of m.later ?? [])
      needs[k] = () => {
        if (!(k in provided)) throw new Error(`module ${m.name}: ${String(k)} read before the module that provides it was built`);
        return provided[k];
      };
    const b = await m.build(needs as never, platform);
    for (const [k, v] of Object.entries(b.provides)) {
      if (k in provided) throw new Error(`module ${m.name} provides ${k}, already provided`);
      provided[k] = v;
    }
    for (const job of b.jobs ?? []) platform.jobs.define(job);
    for (const [name, sweep] of Object.entries(b.sweeps ?? {})) platform.jobs.sweep(name, sweep);
    for (const h of b.on ?? []) listen(platform.events, h);
    built.push({ name: m.name, b });
  }
  for (const m of modules)
    for (const k of m.later ?? [])
      if (!(k in provided)) throw new Error(`module ${m.name} needs ${String(k)} later; no module provides it`);
  const sockets = built.flatMap(({ b }) => b.sockets ?? []);
  const unclaimed = SOCKET_EVENT_NAMES.filter((n) => sockets.filter((s) => s === n).length !== 1);
  if (unclaimed.length) throw new Error(`bridged events not published by exactly one module: ${unclaimed.join(', ')}`);
  return {
    provided: provided as Partial<Provided>,
    sockets,
    async routes(app, only) {
      for (const { name, b } of built) if (!only || only.includes(name)) await b.routes?.(app);
    },
    async start() {
      for (const { b } of built) await b.start?.();
    },
    async stop() {
      for (const { b } of built.toReversed()) await b.stop?.();
    },
  };
}
