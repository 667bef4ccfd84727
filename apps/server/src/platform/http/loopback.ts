import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors';

export const isLoopback = (ip: string | undefined) => !!ip && (ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.'));

/** Headers a reverse proxy adds: a request carrying one came from elsewhere, whatever the socket says. */
const FORWARDING = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip', 'via'];

/**
 * Routes of the encapsulating plugin answer only a person (or a bench) on this machine: anyone else
 * gets 404. Behind a reverse proxy on the same host every request comes from loopback, so a request
 * that went through a proxy (it carries a forwarding header) is refused too.
 */
export function loopbackOnly(app: FastifyInstance) {
  app.addHook('onRequest', async (req) => {
    if (!isLoopback(req.socket.remoteAddress) || FORWARDING.some((h) => req.headers[h] !== undefined)) throw new AppError('not_found');
  });
}
