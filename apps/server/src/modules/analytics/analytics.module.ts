import { defineModule } from '../../platform/modules/define-module';
import { analyticsCache, dropStaleAnswers } from './analytics-cache';
import { analyticsRoutes } from './analytics.routes';
import { AnalyticsService } from './analytics.service';

/** The realtime topic through which one process's dropped answers drop the others'. */
const ANALYTICS_CHANGED = 'analytics-changed';

/** The statistics and the dashboard's figures (issue 28): read through the sessions', invoices', patients' and booking's ports. */
export const analyticsModule = defineModule({
  name: 'analytics',
  needs: ['sessionStats', 'invoiceStats', 'patientStats', 'bookingOffer', 'users', 'workspaces'],
  build: ({ sessionStats, invoiceStats, patientStats, bookingOffer, users, workspaces }, p) => {
    const cache = analyticsCache(p.config.analyticsCache ?? 200);
    cache.cache.shareThrough(p.realtime, ANALYTICS_CHANGED);
    // A service or a blocked day changes the utilisation (booking tells no domain event of them).
    bookingOffer.onChange((workspaceId) => cache.cache.changed(workspaceId));
    const analytics = new AnalyticsService({
      sessionStats,
      invoiceStats,
      patientStats,
      bookingOffer,
      users,
      clock: p.clock ?? (() => new Date()),
      featuresOf: (id) => workspaces.featuresForRead(id),
      memberUserIds: (id) => workspaces.memberUserIds(id),
      cache,
      onReplica: (fn) => p.database.reads.onReplica(fn),
    });
    return { provides: {}, routes: (app) => app.register(analyticsRoutes, { analytics }), on: dropStaleAnswers(cache) };
  },
});
