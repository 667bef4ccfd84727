import type { FastifyInstance } from 'fastify';
import { CLIENT_VERSION_HEADER, isOutdatedClient } from '@divan/core';
import { AppError } from '../errors';

/** A request without `X-Client-Version` is served; one older than the minimum gets `outdated_client`. */
export function registerClientVersionCheck(app: FastifyInstance) {
  app.addHook('onRequest', (req, _reply, done) => {
    const version = req.headers[CLIENT_VERSION_HEADER];
    done(typeof version === 'string' && isOutdatedClient(version) ? new AppError('outdated_client') : undefined);
  });
}
