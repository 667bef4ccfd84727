import { defineModule } from '../../platform/modules/define-module';
import { analyticsRoutes } from './analytics.routes';
import { AnalyticsService } from './analytics.service';

/** The statistics and the dashboard's figures (issue 28): read through the sessions', invoices' and patients' ports. */
export const analyticsModule = defineModule({
  name: 'analytics',
  needs: ['sessionStats', 'invoiceStats', 'patientStats', 'users', 'workspaces'],
  build: ({ sessionStats, invoiceStats, patientStats, users, workspaces }, p) => {
    const analytics = new AnalyticsService({
      sessionStats,
      invoiceStats,
      patientStats,
      users,
      clock: p.clock ?? (() => new Date()),
      featuresOf: (id) => workspaces.featuresOf(id),
      memberUserIds: (id) => workspaces.memberUserIds(id),
    });
    return { provides: {}, routes: (app) => app.register(analyticsRoutes, { analytics }) };
  },
});
