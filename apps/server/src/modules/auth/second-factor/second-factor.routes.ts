import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  authTokensResponse,
  confirmTotpBody,
  loginChallengeResponse,
  loginSecondFactorBody,
  recoveryCodesResponse,
  secondFactorBody,
  secondFactorPolicyBody,
  secondFactorPolicyResponse,
  secondFactorStatusResponse,
  totpEnrolmentResponse,
  userAgentOf,
  workspaceIdParams,
} from '@divan/core';
import { z } from 'zod';
import { AppError } from '../../../platform/errors';
import type { AuthService } from '../auth.service';
import type { SecondFactorService } from './second-factor.service';

const BASE = '/api/v1/realms/therapists/second-factor';
const tags = ['auth'];
const noContent = { 204: z.null().describe('No content') };

/**
 * The second factor (issue 32): the authenticator app and its recovery codes, the sign-in's second step, step-up, and
 * the workspace policy. `secondFactorExempt`: what a member who must still enrol may reach (their status and enrolment).
 */
export async function secondFactorRoutes(
  app: FastifyInstance,
  opts: { auth: AuthService; secondFactor: SecondFactorService; perIpPerMinute: number },
) {
  const { auth, secondFactor } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limited = { rateLimit: { max: opts.perIpPerMinute, timeWindow: 60_000 } };
  const enrolling = { access: 'user' as const, secondFactorExempt: true, ...limited };
  const user = { access: 'user' as const, ...limited };
  const me = (req: FastifyRequest) => req.user!;

  r.post(
    `${BASE}/login`,
    {
      config: { access: 'public', ...limited },
      schema: {
        operationId: 'loginSecondFactor',
        tags,
        description: "The challenge of `/code` (method `totp`) answered with the app's code or a recovery code.",
        body: loginSecondFactorBody,
        response: { 200: authTokensResponse },
      },
    },
    (req) => {
      const { appVersion, deviceManufacturer, deviceModel, platformType, platformVersion } = req.body;
      const device = { appVersion, deviceManufacturer, deviceModel, platformType, platformVersion };
      return auth.loginSecondFactor(req.body, device, { ip: req.ip, userAgent: userAgentOf(req.headers['user-agent']) });
    },
  );
  r.get(
    BASE,
    { config: enrolling, schema: { operationId: 'getSecondFactor', tags, response: { 200: secondFactorStatusResponse } } },
    (req) => secondFactor.status(me(req)),
  );
  r.post(
    `${BASE}/totp`,
    {
      config: enrolling,
      schema: {
        operationId: 'startTotpEnrolment',
        tags,
        description: 'A new secret (QR and manual key), pending until one code confirms it.',
        response: { 200: totpEnrolmentResponse },
      },
    },
    (req) => secondFactor.startTotp(me(req).id),
  );
  r.post(
    `${BASE}/totp/confirm`,
    {
      config: enrolling,
      schema: {
        operationId: 'confirmTotpEnrolment',
        tags,
        description: 'Enables the authenticator; answers the ten recovery codes, shown this once.',
        body: confirmTotpBody,
        response: { 200: recoveryCodesResponse },
      },
    },
    (req) => secondFactor.confirmTotp(me(req), req.body.code),
  );
  r.delete(
    `${BASE}/totp`,
    { config: user, schema: { operationId: 'disableTotp', tags, description: 'Needs step-up.', response: noContent } },
    async (req, reply) => {
      await secondFactor.disableTotp(me(req));
      return reply.status(204).send(null);
    },
  );
  r.post(
    `${BASE}/recovery-codes`,
    {
      config: user,
      schema: {
        operationId: 'regenerateRecoveryCodes',
        tags,
        description: 'Ten new codes; the old ones stop working. Needs step-up.',
        response: { 200: recoveryCodesResponse },
      },
    },
    (req) => secondFactor.regenerateRecoveryCodes(me(req)),
  );
  r.post(
    `${BASE}/step-up`,
    {
      config: user,
      schema: {
        operationId: 'stepUp',
        tags,
        description:
          'A second factor proved now (the app, a recovery code, or a mailed code with its challenge): sensitive actions of this session are allowed for 10 minutes.',
        body: secondFactorBody,
        response: { 200: z.object({ verifiedAt: z.iso.datetime() }) },
      },
    },
    (req) => {
      const { challenge, code, recoveryCode } = req.body;
      if (challenge) {
        if (!code) throw new AppError('invalid_code', [{ path: 'code', message: 'El código no es correcto' }]);
        return auth.emailStepUp(me(req), challenge, code);
      }
      return secondFactor.stepUp(me(req), { code, recoveryCode });
    },
  );
  r.post(
    `${BASE}/step-up/email`,
    {
      config: user,
      schema: {
        operationId: 'startEmailStepUp',
        tags,
        description: 'For an account without an authenticator app: mails a code, answered at `/step-up` with its challenge.',
        response: { 200: loginChallengeResponse },
      },
    },
    (req) => auth.startEmailStepUp(me(req)),
  );

  const P = '/api/v1/workspaces/:workspaceId/second-factor-policy';
  r.get(
    P,
    {
      config: { access: { workspace: 'owner' } },
      schema: { operationId: 'getSecondFactorPolicy', tags, params: workspaceIdParams, response: { 200: secondFactorPolicyResponse } },
    },
    (req) => secondFactor.policy(req.params.workspaceId),
  );
  r.put(
    P,
    {
      config: { access: { workspace: 'owner' } },
      schema: {
        operationId: 'setSecondFactorPolicy',
        tags,
        description: 'Owner only. On: the owner must have an authenticator. Off: needs step-up.',
        params: workspaceIdParams,
        body: secondFactorPolicyBody,
        response: { 200: secondFactorPolicyResponse },
      },
    },
    (req) => secondFactor.setPolicy(req.params.workspaceId, me(req), req.body.required),
  );
}
