import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors';
import { bearerOf, type TokenService } from './tokens';

/**
 * Every route states its access, and the app refuses to start with one that does not:
 * - `public`: anyone;
 * - `user`: a valid access token (bearer) — `request.user` is set;
 * - `refresh`: a refresh token as bearer, checked by the auth service (`request.bearer`).
 * Workspace permissions come on top of `user` with the workspaces module.
 */
export type Access = 'public' | 'user' | 'refresh';
export type RequestUser = { id: string; sessionId: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    user?: RequestUser;
    bearer?: string;
  }
}

export const accessPlugin = fp(async (app: FastifyInstance, opts: { tokens: TokenService }) => {
  // Checked once all onRoute hooks (including `declarePublic` in child contexts) have run.
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route: RouteOptions) => void routes.push(route));
  app.addHook('onReady', async () => {
    const undeclared = routes.filter((r) => !(r.config as { access?: Access } | undefined)?.access);
    if (undeclared.length)
      throw new Error(`Routes without declared access: ${undeclared.map((r) => `${String(r.method)} ${r.url}`).join(', ')}`);
  });
  app.addHook('onRequest', async (req: FastifyRequest) => {
    const access = req.routeOptions.config.access;
    if (access === 'user') req.user = authenticate(req, opts.tokens);
    else if (access === 'refresh') {
      req.bearer = bearerOf(req.headers.authorization);
      if (!req.bearer) throw new AppError('session_not_found');
    }
  });
});

function authenticate(req: FastifyRequest, tokens: TokenService): RequestUser {
  const token = bearerOf(req.headers.authorization);
  const claims = token ? tokens.verifyAccess(token) : null;
  if (!claims) throw new AppError('invalid_access_token');
  return { id: claims.sub, sessionId: claims.sid };
}

/** For third-party routes (docs, static files): call inside their own encapsulated context. */
export function declarePublic(scope: FastifyInstance) {
  scope.addHook('onRoute', (route: RouteOptions) => {
    const config = (route.config ?? {}) as { access?: Access };
    route.config = { ...config, access: config.access ?? 'public' };
  });
}
