import type { FastifyReply } from 'fastify';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { promisify } from 'node:util';
import { gzip as gzipCb } from 'node:zlib';
import { SESSION_FIELDS, fieldAccessKey, scopeFor, sessionGridResponse, sessionResponse, type SessionListQuery } from '@divan/core';
import { z } from 'zod';
import { compiledSerializer } from '../../platform/http/compiled-serializer';
import { CachedReads } from '../../platform/cache/cached-reads';
import { handle, type Handler } from '../../platform/modules/define-module';
import type { Caller } from '../../platform/auth/caller';
import { checkedRange } from './session-rules';
import type { SessionsService } from './sessions.service';

/** The sessions' contract compiled once (platform/http/compiled-serializer.ts): no Zod pass over a clinic's week. */
const serializeSessions = compiledSerializer(z.array(sessionResponse));
const serializeGrid = compiledSerializer(sessionGridResponse);
const gzip = promisify(gzipCb);

/** A range read as sent: its JSON, and the same gzipped when it is worth it (a clinic's week is ~2.5 MB of JSON). */
export type SessionListBody = { json: Buffer; gzip?: Buffer };
/** One read per key at a time, refreshed ahead of the 60-s age bound (platform/cache/cached-reads.ts). */
export type SessionListCache = CachedReads<SessionListBody>;

/** Sessions checked against the contract and written between two turns of the event loop. */
const JSON_SLICE = 250;

/** Below this a gzipped copy saves less than it costs. */
const GZIP_FROM_BYTES = 8 * 1024;

/**
 * Range reads per workspace (see WorkspaceCache): up to `entries`, 64 MB of JSON and gzip together. A
 * kept read older than `refreshAfterMs` is read again in the background while it is still served, so
 * the age bound (for a change another process could not tell) never leaves a busy calendar waiting;
 * after a change every open calendar of the workspace reads again at once (its live event), and they
 * share the one query. With `entries` 0 (SESSION_LIST_CACHE=0) every request makes its own.
 */
export const sessionListCache = (entries: number, refreshAfterMs = 40_000, now?: () => number): SessionListCache =>
  new CachedReads<SessionListBody>({
    maxEntries: entries,
    maxSize: 64 * 1024 * 1024,
    sizeOf: (b) => b.json.length + (b.gzip?.length ?? 0),
    ttlMs: 60_000,
    refreshAfterMs,
    ...(now ? { now } : {}),
  });

/**
 * Every event after which a range read may show something else: the sessions' own changes (series
 * edits emit one per occurrence they touch), and the patient's name or presence.
 */
export const SESSION_LIST_EVENTS = [
  'session.created',
  'session.updated',
  'session.canceled',
  'session.completed',
  'session.deleted',
  'patient.updated',
  'patient.blocked',
  'patient.erased',
] as const;

/** Stale range reads are dropped, here and (through the cache's own note) in every process. */
export function dropStaleSessionLists(cache: SessionListCache): Handler[] {
  return [
    // 'once': the cache's `changed` tells the other processes itself (WorkspaceCache.shareThrough).
    ...SESSION_LIST_EVENTS.map((name) => handle(name, 'once', ({ workspaceId }) => cache.cache.changed(workspaceId))),
    // Sessions show their therapist's name: a new name empties every read, in every process.
    handle('user.profile_updated', 'every-process', ({ fields }) => {
      if (fields.includes('firstName') || fields.includes('lastName')) cache.cache.clear();
    }),
  ];
}

/**
 * Writes that change what a session shows but publish no domain event (a location's name, a clinical
 * note linked to a session, its privacy): `method` of `service` is followed by `changed` of the workspace
 * `workspaceOf` names from its arguments, once it has resolved (its transaction committed).
 */
export function invalidateAfter<S extends object, K extends keyof S>(
  cache: SessionListCache,
  service: S,
  methods: readonly K[],
  workspaceOf: (...args: never[]) => string | undefined,
) {
  for (const name of methods) {
    const original = service[name];
    if (typeof original !== 'function') throw new Error(`invalidateAfter: ${String(name)} is not a method`);
    const wrapped = async (...args: unknown[]) => {
      const result: unknown = await (original as (...a: unknown[]) => Promise<unknown>).apply(service, args);
      const ws = (workspaceOf as (...a: unknown[]) => string | undefined)(...args);
      if (ws) cache.cache.changed(ws);
      return result;
    };
    service[name] = wrapped as S[K];
  }
}

/** The range read's two shapes: the full sessions (GET …/sessions) and the grid's columns (GET …/sessions/grid). */
export type SessionListView = 'list' | 'grid';

/**
 * The calendar's range read (GET …/sessions and …/sessions/grid) as bytes. Reads are kept until a session, patient, note,
 * location or therapist name of the workspace changes (docs/decisions/0015-calendar-reads.md). The key
 * holds who reads (their scope, the field groups they read, and themselves when they read notes, whose
 * ids depend on the reader) and the whole range; the generation is taken before the query, so a read
 * that raced a write is never kept.
 */
export class SessionListReader {
  constructor(
    private readonly sessions: SessionsService,
    private readonly cache: SessionListCache,
  ) {}

  async read(
    c: Caller,
    q: SessionListQuery,
    acceptsGzip: boolean,
    view: SessionListView = 'list',
  ): Promise<{ body: Buffer; gzipped: boolean }> {
    const { start, end } = checkedRange(q.from, q.to);
    const scope = scopeFor(c.member.ability, 'read', 'sessions', c.userId);
    const who = [scope.kind === 'own' ? `own:${scope.ownerId}` : scope.kind, fieldAccessKey(c.member.ability, SESSION_FIELDS, c.userId)];
    if (c.member.ability.can('read', 'patient_histories')) who.push(c.userId);
    const key = [view, ...who, start.toISOString(), end.toISOString(), q.therapistId ?? '', q.patientId ?? '', q.status ?? ''].join('|');
    const range = { ...q, from: start.toISOString(), to: end.toISOString() };
    // A kept read (or one refreshed in the background) serves every client: it holds the gzipped copy too.
    const body = await this.cache.read(c.member.workspaceId, key, () =>
      this.build(c, range, acceptsGzip || this.cache.cache.enabled, view),
    );
    return acceptsGzip && body.gzip ? { body: body.gzip, gzipped: true } : { body: body.json, gzipped: false };
  }

  /** A miss is written by the response contract compiled to a serialiser, then kept as the bytes sent. */
  private async build(c: Caller, q: SessionListQuery, withGzip: boolean, view: SessionListView): Promise<SessionListBody> {
    const json = Buffer.from(view === 'grid' ? serializeGrid(await this.sessions.grid(c, q)) : await this.listJson(c, q));
    return {
      json,
      gzip: json.length >= GZIP_FROM_BYTES && withGzip ? await gzip(json, { level: 6 }) : undefined,
    };
  }

  /** The full sessions, written in slices like their presentation: a clinic's week never holds the loop for long. */
  private async listJson(c: Caller, q: SessionListQuery): Promise<string> {
    const { items } = await this.sessions.list(c, q);
    const parts: string[] = [];
    for (let i = 0; i < items.length; i += JSON_SLICE) {
      if (i > 0) await yieldToLoop();
      parts.push(serializeSessions(items.slice(i, i + JSON_SLICE)).slice(1, -1));
    }
    return `{"items":[${parts.join(',')}]}`;
  }
}

/** Whether the request's Accept-Encoding takes gzip (every browser's does). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !qParam || Number(qParam.slice(2)) > 0;
  });
}

/** The route's answer: bytes as they are (a Buffer skips the serialiser), gzipped for a client that takes it. */
export async function sendSessionList(
  reply: FastifyReply,
  reader: SessionListReader,
  c: Caller,
  q: SessionListQuery,
  acceptEncoding: string | string[] | undefined,
  view: SessionListView = 'list',
) {
  const { body, gzipped } = await reader.read(c, q, acceptsGzip(acceptEncoding), view);
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  if (gzipped) reply.header('content-encoding', 'gzip');
  return reply.send(body as never);
}
