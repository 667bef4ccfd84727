import { FEEDBACK_PER_HOUR } from '@divan/core';
import { createRateLimiter } from '../../platform/http/rate-limiter';
import { defineModule } from '../../platform/modules/define-module';
import { feedbackRoutes } from './feedback.routes';
import { FeedbackService } from './feedback.service';

/** Ajustes → Ayuda: the contact address, and comments to Diván's team (kept, and mailed to OPERATOR_EMAIL). */
export const feedbackModule = defineModule({
  name: 'feedback',
  needs: ['users'],
  build: async ({ users }, p) => {
    const feedback = new FeedbackService(p.db, p.mailer, users, p.config.operatorEmail);
    // Per user, shared by every process through Redis when REDIS_URL is set.
    const limiter = await createRateLimiter({
      max: FEEDBACK_PER_HOUR,
      windowMs: 3_600_000,
      prefix: 'divan:rl:feedback',
      redisUrl: p.config.redisUrl,
    });
    return { provides: {}, routes: (app) => app.register(feedbackRoutes, { feedback, limiter }), stop: () => limiter.close() };
  },
});
