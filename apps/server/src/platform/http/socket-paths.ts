import type { FastifyInstance, RouteOptions } from 'fastify';
import { AppError } from '../errors';

/**
 * A websocket handshake on a path that has no socket (an HTTP route) is a 404 `{code, message}` like any
 * unknown address. Left alone, the websocket plugin accepts it (101) and closes it at once, without a
 * word of why. Registered before the routes, so it sees every socket route as it is added.
 */
export function refuseStrayUpgrades(app: FastifyInstance) {
  const socketRoutes = new Set<string>();
  app.addHook('onRoute', (route: RouteOptions & { websocket?: boolean; wsHandler?: unknown }) => {
    if (route.websocket || route.wsHandler) socketRoutes.add(route.url);
  });
  app.addHook('onRequest', (req, _reply, done) =>
    done(req.ws && !socketRoutes.has(req.routeOptions.url ?? '') ? new AppError('not_found') : undefined),
  );
}
