import type { FastifyInstance } from 'fastify';
import { loopbackOnly } from '../http/loopback';
import type { Jobs } from './jobs';

/** The job runner's own cost (statements sent, database time spent), outside production, from this machine: `npm run bench` reads it. */
export async function devJobsRoutes(app: FastifyInstance, { jobs }: { jobs: Jobs }) {
  loopbackOnly(app);
  app.get('/dev/jobs', { config: { access: 'public' }, schema: { hide: true } }, async () => jobs.stats());
}
