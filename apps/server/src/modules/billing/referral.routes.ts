import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  redeemReferralBody,
  redeemReferralResponse,
  referralCodeField,
  referralInviterResponse,
  referralResponse,
  workspaceIdParams,
} from '@divan/core';
import { caller } from '../../platform/auth/caller';
import type { ReferralService } from './referral.service';

const tags = ['billing'];

/** Ajustes › Invitar: the personal code, the friends who joined, a colleague's code redeemed; the sign-up page's welcome. */
export async function referralRoutes(app: FastifyInstance, d: { referrals: ReferralService; perIpPerMinute: number }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v1/me/referral',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'getMyReferral',
        tags,
        description:
          'The caller’s invitation code and link, who invited them, the colleagues who joined with it and the months off earned.',
        response: { 200: referralResponse },
      },
    },
    (req) => d.referrals.mine(req.user!.id),
  );
  r.post(
    '/api/v1/workspaces/:workspaceId/referral',
    {
      config: { access: { workspace: 'member' } },
      schema: {
        operationId: 'redeemReferral',
        tags,
        description:
          'A colleague’s code, entered by the owner of a workspace that never had a plan: 30 more days of trial. One code per person.',
        params: workspaceIdParams,
        body: redeemReferralBody,
        response: { 200: redeemReferralResponse },
      },
    },
    (req) => d.referrals.redeem(caller(req).member, caller(req).userId, req.body.code),
  );
  r.get(
    '/api/v1/referrals/:code',
    {
      config: { access: 'public', rateLimit: { max: d.perIpPerMinute, timeWindow: 60_000 } },
      schema: {
        operationId: 'getReferralInviter',
        tags,
        description: 'Whose invitation code this is (their first name), for the sign-up page’s welcome.',
        params: z.object({ code: referralCodeField }),
        response: { 200: referralInviterResponse },
      },
    },
    (req) => d.referrals.inviter(req.params.code),
  );
}
