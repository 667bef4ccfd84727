import { defineModule } from '../../platform/modules/define-module';
import { healthRoutes } from './health.routes';

/** GET /api/v1/health (the process answers, and on which database), /health/live and /health/ready (the load balancer's). Needs nothing. */
export const healthModule = defineModule({
  name: 'health',
  needs: [],
  build: (_d, p) => ({
    provides: {},
    routes: (app) => app.register(healthRoutes, { database: p.database.kind, lifecycle: p.lifecycle }),
  }),
});
