import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { IMAGE_MAX_BYTES } from '@divan/core';
import { accessPlugin, type MembershipResolver } from '../auth/access';
import { requestValidator } from '../http/absent-nulls';
import { registerClientVersionCheck } from '../http/client-version';
import { clientErrorHandler, frameworkErrors, registerErrorHandler } from '../http/error-handler';
import { registerMemberRateLimits } from '../http/member-rate-limit';
import { registerOpenApi } from '../http/openapi';
import { registerSecurityHeaders } from '../http/security-headers';
import { refuseStrayUpgrades } from '../http/socket-paths';
import { inlineScriptHashes, registerWebApp, type WebPage } from '../http/web-app';
import { devJobsRoutes } from '../jobs/dev-jobs.routes';
import { countRequests, type Metrics } from '../metrics/metrics';
import { jobLogFields, requestContext } from '../request-context';
import { devMailRoutes } from '../mail/dev-mail.routes';
import { filesRoutes } from '../storage/files.routes';
import type { Config } from '../config';
import type { Platform } from './platform';

/** The patient's companion (its own entry of the web build, an installable app) for /p and /p/…; no other site may frame it. */
export const companionPage: WebPage = { prefix: '/p/', file: 'companion.html' };

/** The Fastify instance: its logger, proxies, body limit and the Spanish answers to what it refuses before routing. */
export function createServer(config: Config, opts: { logger?: boolean; logStream?: { write(line: string): unknown } }) {
  return Fastify({
    logger:
      opts.logger === false
        ? false
        : { level: config.logLevel, mixin: jobLogFields, ...(opts.logStream ? { stream: opts.logStream } : {}) },
    // Request ids unique across processes; behind a trusted proxy, the one it sends (haproxy's unique-id) so both logs match.
    genReqId: () => randomUUID(),
    requestIdHeader: config.trustProxy ? 'x-request-id' : false,
    trustProxy: config.trustProxy ?? false,
    bodyLimit: 1024 * 1024,
    // Closing (SIGTERM): a request that still comes on an open connection is served, with Connection: close,
    // rather than answered 503 — the balancer stopped sending here when readiness turned 503.
    return503OnClosing: false,
    // A path Fastify refuses before routing (a parameter past its length, a bad escape) is a Spanish 4xx too.
    frameworkErrors,
    // …and what the HTTP parser refuses (a body cut before its Content-Length, headers too big).
    clientErrorHandler,
    // Each request is logged at debug level only (registerHttp's route hook sets warn for the handlers' own logs).
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
  });
}

/** Where the built web app is: WEB_DIST, else beside the server's build when there is one. */
export const webDistOf = (p: Platform, defaultWebDist: string) =>
  p.config.webDist ?? (existsSync(defaultWebDist) ? defaultWebDist : undefined);

/**
 * Everything before the modules' routes: logging levels, validation, errors, security headers, rate
 * limits, uploads, sockets, who the caller is, the client's version and the OpenAPI document.
 */
export async function registerHttp(
  app: FastifyInstance,
  p: Platform,
  o: { webDist?: string; pages: WebPage[]; resolveMembership: MembershipResolver; api?: boolean; metrics?: Metrics },
) {
  const { config } = p;
  // Each request is logged only at debug level; warnings and errors always.
  if (config.logLevel !== 'debug' && config.logLevel !== 'trace') app.addHook('onRoute', (route) => void (route.logLevel ??= 'warn'));
  // A null where a body's field is optional is that field left out (absent-nulls.ts).
  app.setValidatorCompiler(requestValidator);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  if (o.metrics) countRequests(app, o.metrics);
  // The request's id for the code it runs, across awaits: the jobs it enqueues carry it (request-context.ts).
  app.addHook('onRequest', (req, _reply, done) => requestContext.run({ requestId: req.id }, done));
  // Draining (SIGTERM): each answer closes its connection, so clients and the balancer open new ones elsewhere.
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
    if (p.lifecycle.draining) reply.header('connection', 'close');
  });
  registerSecurityHeaders(
    app,
    inlineScriptHashes(
      o.webDist,
      o.pages.map((page) => page.file),
    ),
  );
  // The plugin does not close the client it is given: we do, or the process could not exit.
  const rateLimitRedis = config.redisUrl ? new (await import('ioredis')).Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : undefined;
  if (rateLimitRedis) app.addHook('onClose', async () => void (await rateLimitRedis.quit()));
  await app.register(rateLimit, { global: false, redis: rateLimitRedis, nameSpace: 'divan:rl:ip:' });
  await registerMemberRateLimits(app, { ...config.rateLimit, redisUrl: config.redisUrl });
  if (o.api !== false) {
    await app.register(multipart, { limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 10 } });
    // Closing (SIGTERM): every socket, the chat's and the video room's, is told "going away" (1001) so its
    // client reconnects, through the balancer, to another process. Before the plugin's own preClose (a bare close).
    app.addHook('preClose', (done) => {
      for (const client of app.websocketServer?.clients ?? []) client.close(GOING_AWAY, 'server shutting down');
      done();
    });
    await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  }
  await app.register(accessPlugin, { tokens: p.tokens, resolveMembership: o.resolveMembership });
  registerClientVersionCheck(app);
  if (o.api === false) return;
  refuseStrayUpgrades(app);
  await registerOpenApi(app);
  await app.register(filesRoutes, { publicImages: p.publicImages });
}

/** The websocket close code of a server going down (RFC 6455 §7.4.1). */
export const GOING_AWAY = 1001;

/** After the modules' routes: the development pages, the notifications socket, and the web app (its catch-all last). */
export async function registerPlatformRoutes(app: FastifyInstance, p: Platform, o: { webDist?: string; pages: WebPage[] }) {
  if (p.config.env !== 'production') await app.register(devJobsRoutes, { jobs: p.jobs });
  if (p.devMail) await app.register(devMailRoutes, { mailer: p.mailer });
  await app.register(async (scope) => p.realtime.register(scope));
  await registerWebApp(app, o.webDist, o.pages);
}
