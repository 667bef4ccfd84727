import { defineModule } from '../../platform/modules/define-module';
import { analyticsRoutes } from './analytics.routes';
import { AnalyticsService } from './analytics.service';

/** The statistics and the dashboard's figures (issue 28): read through the sessions', invoices', patients' and booking's ports. */
export const analyticsModule = defineModule({
  name: 'analytics',
  needs: ['sessionStats', 'invoiceStats', 'patientStats', 'bookingOffer', 'users', 'workspaces'],
  build: ({ sessionStats, invoiceStats, patientStats, bookingOffer, users, workspaces }, p) => {
    const analytics = new AnalyticsService({
      sessionStats,
      invoiceStats,
      patientStats,
      bookingOffer,
      users,
      clock: p.clock ?? (() => new Date()),
      featuresOf: (id) => workspaces.featuresOf(id),
      memberUserIds: (id) => workspaces.memberUserIds(id),
    });
    return { provides: {}, routes: (app) => app.register(analyticsRoutes, { analytics }) };
  },
});
