import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { feedbackBody, feedbackMessages, feedbackResponse, supportResponse } from '@divan/core';
import { AppError } from '../../platform/errors';
import type { RateLimiter } from '../../platform/http/rate-limiter';
import type { FeedbackService } from './feedback.service';

const tags = ['me'];

export async function feedbackRoutes(app: FastifyInstance, { feedback, limiter }: { feedback: FeedbackService; limiter: RateLimiter }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/v1/support',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'getSupport',
        tags,
        description: 'Where to write for help: the operator’s address (OPERATOR_EMAIL), or null.',
        response: { 200: supportResponse },
      },
    },
    () => feedback.support(),
  );
  r.post(
    '/api/v1/me/feedback',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'sendFeedback',
        tags,
        description: 'A comment to Diván’s team, kept and (with OPERATOR_EMAIL) mailed there. A few per user per hour.',
        body: feedbackBody,
        response: { 201: feedbackResponse },
      },
      // After validation: a refused body spends none of the hour's budget.
      preHandler: async (req) => {
        try {
          await limiter.hit(req.user!.id);
        } catch (err) {
          if (err instanceof AppError && err.code === 'too_many_requests')
            throw new AppError('too_many_requests', undefined, feedbackMessages.tooMany);
          throw err;
        }
      },
    },
    async (req, reply) => reply.status(201).send(await feedback.send(req.user!.id, req.body, req.headers['user-agent'])),
  );
}
